// A node's deployment token: what the one-line install command carries so that the node's new
// machine, which has no account on the panel, may fetch the kiln executable and its own config
// for an hour. "kd1.<node id>.<expiry>.<nonce>.<HMAC-SHA256 of the rest, keyed by the node's
// secret>". It names its node, so it opens nothing of another node; its "kd1" prefix is part of
// what is signed, so it is never mistaken for a node call token (core/node-token, "v1"), nor
// the other way round, although both are keyed by the same secret.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "../../../db";
import { KilnError } from "../../../core/errors";
import { markUsed } from "../cluster/one-time-values";

/** An hour: time to copy the command to the machine, short enough that a copy found later in a shell history has lapsed. */
export const DEPLOY_TOKEN_TTL_S = 3600;
const PREFIX = "kd1";

interface Signer {
  id: number;
  secret: string;
}

export function signDeployToken(node: Signer, now = Date.now()): string {
  const expiry = Math.floor(now / 1000) + DEPLOY_TOKEN_TTL_S;
  const body = `${PREFIX}.${node.id}.${expiry}.${randomBytes(9).toString("base64url")}`;
  return `${body}.${mac(node.secret, body)}`;
}

/** Whether the caller offers a deployment token at all (then it is checked, never taken for a session). */
export function isDeployToken(token: string | null): token is string {
  return token?.startsWith(`${PREFIX}.`) ?? false;
}

/** True for a well-formed, unexpired token of this node signed with its secret. */
export function verifyDeployToken(node: Signer, token: string, now = Date.now()): boolean {
  const parts = token.split(".");
  if (parts.length !== 5 || parts[0] !== PREFIX || parts[1] !== String(node.id)) return false;
  const expiry = Number(parts[2]);
  const nowS = Math.floor(now / 1000);
  // One valid for longer than the TTL was not made here (a little clock skew allowed).
  if (!Number.isInteger(expiry) || expiry < nowS || expiry > nowS + DEPLOY_TOKEN_TTL_S + 30) return false;
  const expected = Buffer.from(mac(node.secret, parts.slice(0, 4).join(".")));
  const given = Buffer.from(parts[4]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Spends a verified token on the node's config (its secret), or refuses one already spent
 * (ErrInvalidCredentials). The config goes out once per token: the install line is pasted into
 * chats and tickets, kept in provisioning logs and terminal recordings, and a copy found after
 * the install, or a second machine racing with it, must not become the node. A copy used first
 * makes the operator's own install fail, so the theft shows. Kept in the database until the token
 * lapses, so every panel process on it spends the same tokens.
 */
export async function spendDeployToken(db: Db, token: string): Promise<void> {
  const [, id, expiry, nonce] = token.split(".");
  if (!(await markUsed(db, USED_KIND, `${id}.${nonce}`, Number(expiry) * 1000))) {
    throw new KilnError("ErrInvalidCredentials", undefined, "this deployment token has already fetched the node's config: copy a new install line from the node's page");
  }
}

const USED_KIND = "deploy-token-used";

/** Which node a deployment token says it is for (checked by verifyDeployToken afterwards). */
export function deployTokenNode(token: string): number | null {
  const id = Number(token.split(".")[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function mac(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("base64url");
}
