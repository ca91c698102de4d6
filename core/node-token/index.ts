// Tokens that prove a caller knows a node's secret without ever sending it, and the proof a node
// gives that it holds that secret. docs/security.md ("Panel and node") is the design:
//
//   kn2.<node id>.<expiry>.<nonce>.<HMAC-SHA256(secret, "kn2|<direction>|<node id>|<expiry>|<nonce>|<METHOD>|<path?query>")>
//
// A token names the node it is for, the direction (panel to node, node to panel), and the one
// request it authorises (method and target); it lives NODE_TOKEN_TTL_S and its receiver remembers
// its nonce until then (NonceLedger), so a token caught on the way opens nothing else and cannot be
// used again. The node id is "0" where the signer does not know it (a node whose config names no
// id); the secret, unique per node, still binds the token to one node.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** How long a token is valid: one is made per call, so a few seconds would do; the rest is for a slow link. */
export const NODE_TOKEN_TTL_S = 30;
/** How far the two machines' clocks may disagree. */
export const NODE_CLOCK_SKEW_S = 30;

const VERSION = "kn2";
const TOKEN = /^kn2\.(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{12,32})\.([A-Za-z0-9_-]{43})$/;

export type TokenDirection = "to-node" | "to-panel";

/** What one token authorises: one request, in one direction, for one node. */
export interface TokenScope {
  direction: TokenDirection;
  /** The node's id on the panel; 0 when the signer does not know it. */
  nodeId: number;
  method: string;
  /** The request's path and query, as the receiver's URL parser reads them (`requestTarget`). */
  target: string;
}

/** The path and query of a URL, the form in which both ends sign and check a request's target. */
export function requestTarget(url: string | URL): string {
  const parsed = typeof url === "string" ? new URL(url) : url;
  return `${parsed.pathname}${parsed.search}`;
}

export function signNodeToken(secret: string, scope: TokenScope, now = Date.now()): string {
  const expiry = Math.floor(now / 1000) + NODE_TOKEN_TTL_S;
  const nonce = randomBytes(12).toString("base64url");
  const nodeId = String(scope.nodeId);
  return `${VERSION}.${nodeId}.${expiry}.${nonce}.${mac(secret, signed(scope.direction, nodeId, String(expiry), nonce, scope.method, scope.target))}`;
}

export interface ReadToken {
  nodeId: number;
  expiry: number;
  nonce: string;
  mac: string;
}

/** The token's fields, or null when it is not a well-formed token; says nothing of its signature. */
export function readNodeToken(token: string | null | undefined): ReadToken | null {
  const match = token ? TOKEN.exec(token) : null;
  if (!match) return null;
  return { nodeId: Number(match[1]), expiry: Number(match[2]), nonce: match[3]!, mac: match[4]! };
}

/**
 * The token's fields when it is signed with `secret` for exactly this request (direction, method,
 * target) and within its lifetime at `now`; null otherwise. The node id is returned, not checked:
 * the caller knows whether it has one to compare. Replay is the caller's to refuse (NonceLedger).
 */
export function verifyNodeToken(secret: string, token: string | null | undefined, request: Omit<TokenScope, "nodeId">, now = Date.now()): ReadToken | null {
  const read = readNodeToken(token);
  if (!read) return null;
  const nowS = Math.floor(now / 1000);
  // A token that lapsed, or one valid for longer than any we make, was not made for this moment.
  if (read.expiry < nowS - NODE_CLOCK_SKEW_S || read.expiry > nowS + NODE_TOKEN_TTL_S + NODE_CLOCK_SKEW_S) return null;
  const expected = Buffer.from(mac(secret, signed(request.direction, String(read.nodeId), String(read.expiry), read.nonce, request.method, request.target)));
  const given = Buffer.from(read.mac);
  return expected.length === given.length && timingSafeEqual(expected, given) ? read : null;
}

/**
 * The node's answer to a panel's challenge: it shows the node holds the secret the panel knows for
 * node `nodeId`, before the panel sends it any token. Its own domain ("proof"), so no proof is ever
 * a token's signature, whatever challenge a stranger asks the node to sign.
 */
export function nodeProof(secret: string, nodeId: number, challenge: string): string {
  return mac(secret, `${VERSION}|proof|${nodeId}|${challenge}`);
}

/** Where a node answers the panel's challenge: outside /daemon, as asking needs no token. */
export const NODE_PROOF_PATH = "/kiln-node/proof";

/** A challenge the panel makes; the node signs only challenges of this form. */
export const CHALLENGE = /^[A-Za-z0-9_-]{22,64}$/;

export function newChallenge(): string {
  return randomBytes(24).toString("base64url");
}

export function proofMatches(secret: string, nodeId: number, challenge: string, proof: unknown): boolean {
  if (typeof proof !== "string") return false;
  const expected = Buffer.from(nodeProof(secret, nodeId, challenge));
  const given = Buffer.from(proof);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Until when (epoch seconds) a nonce used at `nowS` is remembered: past its token's expiry by the
 * skew, as the token stays acceptable that long (verifyNodeToken), and never for less than a fresh
 * token's life. The signer picks the expiry: tokens minted a second before they lapse would leave
 * a bounded ledger a second later, and the ledger would bound nothing about how many a signer uses.
 */
export function nonceKeptUntil(expiry: number, nowS: number): number {
  return Math.max(expiry, nowS + NODE_TOKEN_TTL_S) + NODE_CLOCK_SKEW_S;
}

/**
 * The nonces of tokens already used, each kept until its token lapses (nonceKeptUntil): a token is
 * good once. Bounded: a receiver holding `capacity` live nonces refuses further tokens until some
 * lapse (only a holder of the secret can mint tokens, and the panel makes far fewer than this in a
 * token's lifetime), so a signer uses at most `capacity` tokens in a token's life.
 */
export class NonceLedger {
  private readonly until = new Map<string, number>();
  /** The second of the last sweep of the whole ledger: a full ledger refusing a flood is not walked whole at every call. */
  private sweptWholeAt = -1;

  constructor(private readonly capacity = 200_000) {}

  /** True the first time a nonce is offered before its token lapses; false for a replay or when full. */
  claim(nonce: string, expiry: number, now = Date.now()): boolean {
    const nowS = Math.floor(now / 1000);
    if (this.until.has(nonce)) return false;
    this.sweep(nowS);
    if (this.until.size >= this.capacity && this.sweptWholeAt !== nowS) {
      this.sweptWholeAt = nowS;
      this.sweep(nowS, true);
    }
    if (this.until.size >= this.capacity) return false;
    this.until.set(nonce, nonceKeptUntil(expiry, nowS));
    return true;
  }

  get size(): number {
    return this.until.size;
  }

  /**
   * Forgets lapsed nonces from the oldest on, stopping at the first live one: tokens arrive roughly
   * in the order they lapse, so this is cheap, and one that came out of order is forgotten later.
   */
  private sweep(nowS: number, whole = false): void {
    for (const [nonce, until] of this.until) {
      if (until < nowS) this.until.delete(nonce);
      else if (!whole) break;
    }
  }
}

function signed(direction: string, nodeId: string, expiry: string, nonce: string, method: string, target: string): string {
  return `${VERSION}|${direction}|${nodeId}|${expiry}|${nonce}|${method.toUpperCase()}|${target}`;
}

function mac(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("base64url");
}
