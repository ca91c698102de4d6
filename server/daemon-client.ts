// How the panel calls a node: its private address, with a token signed by the node's secret for
// that one request (core/node-token). Before the first token goes to an address, the node there
// must prove it holds the node's secret (a challenge it signs), so a listener put in the node's
// place learns nothing. A node that does not answer is ErrServiceNotAvailable; one that does not
// prove itself is ErrNodeUnverified; a node that refuses the token (a wrong secret) is the same to
// the user as one that does not answer, never a 401 that would log them out.
import { createHash } from "node:crypto";
import { KilnError } from "../core/errors";
import type { ConnectLive } from "../core/live/in-process";
import { NODE_PROOF_PATH, newChallenge, proofMatches, requestTarget, signNodeToken } from "../core/node-token";
import { NODE_OPERATIONS, operationPath, type NodeOperationName, type NodeTimeout, type OperationParams } from "../core/contract";
import { recordOperation } from "./services/activity/operations";
import { noteNodeWrite } from "./node-writes";
import { NODE_ANSWER_BOUNDS, boundedAnswer, type AnswerBounds } from "./node-answer-bounds";

export interface NodeAddress {
  id: number;
  name: string;
  privateHost: string;
  privatePort: number;
  secret: string;
}

/** How long the panel waits for a node before giving up (power actions with wait take longer). */
export const NODE_TIMEOUT_MS = 10_000;
/** What each of the contract's timeouts is. */
export const NODE_TIMEOUTS: Record<NodeTimeout, number> = {
  quick: NODE_TIMEOUT_MS,
  // A transfer lasts as long as its data takes: the caller leaving (its signal) ends it.
  transfer: 24 * 3600_000,
  // A removal stops the server first, which may take its whole stop timeout.
  removal: 90_000,
};
/** How long a node's proof at an address holds before the panel asks again (a name may come to point elsewhere). */
export const PROOF_TTL_MS = 5 * 60_000;
const PROOF_TIMEOUT_MS = 5_000;
/** A proof is a short JSON object: anything longer is not one. */
const PROOF_MAX_BYTES = 4096;

/** A node running in this very process (the local node of `kiln panel`): its API and its live sockets as functions. */
export interface InProcessNode {
  handle(request: Request): Response | Promise<Response>;
  connectLive: ConnectLive;
}
const IN_PROCESS = new Map<string, InProcessNode>();

/**
 * Calls to `baseUrl` go straight to `node`, without a loopback connection: request and answer
 * bodies pass as streams, so uploads and downloads to the local node are copied twice less, and
 * its live sockets are joined to the browsers' directly (core/live/in-process). Answers how to stop.
 */
export function serveInProcess(baseUrl: string, node: InProcessNode): () => void {
  IN_PROCESS.set(baseUrl, node);
  return () => void (IN_PROCESS.get(baseUrl) === node && IN_PROCESS.delete(baseUrl));
}

/** How to open a live socket to `node` within this process; null when it runs elsewhere. */
export function inProcessLive(node: Pick<NodeAddress, "privateHost" | "privatePort">): ConnectLive | null {
  return IN_PROCESS.get(nodeBaseUrl(node))?.connectLive ?? null;
}

export function nodeBaseUrl(node: Pick<NodeAddress, "privateHost" | "privatePort">): string {
  const host = node.privateHost.includes(":") ? `[${node.privateHost}]` : node.privateHost;
  return `http://${host}:${node.privatePort}`;
}

/** The Authorization header for one request to the node: `url` is the full URL it goes to. */
export function nodeAuthorization(node: NodeAddress, method: string, url: string): string {
  return `Bearer ${signNodeToken(node.secret, { direction: "to-node", nodeId: node.id, method, target: requestTarget(url) })}`;
}

function send(node: NodeAddress, url: string, init: RequestInit): Promise<Response> {
  const local = IN_PROCESS.get(nodeBaseUrl(node));
  return local ? Promise.resolve(local.handle(new Request(url, init))) : fetch(url, init);
}

/** Addresses where the node proved itself, until when; keyed by node, address and secret, so a change of any asks again. */
const proven = new Map<string, number>();
const proving = new Map<string, Promise<void>>();

function proofKey(node: NodeAddress): string {
  return `${node.id}|${nodeBaseUrl(node)}|${createHash("sha256").update(node.secret).digest("base64url")}`;
}

/**
 * Resolves once the node at the address proved it holds its secret (asking at most once per
 * PROOF_TTL_MS, and once at a time); throws ErrServiceNotAvailable when nothing answers and
 * ErrNodeUnverified when what answers is not that node. No token is sent before it resolves.
 */
export async function proveNode(node: NodeAddress): Promise<void> {
  const key = proofKey(node);
  if ((proven.get(key) ?? 0) > Date.now()) return;
  let pending = proving.get(key);
  if (!pending) {
    pending = askProof(node).then(() => void proven.set(key, Date.now() + PROOF_TTL_MS)).finally(() => proving.delete(key));
    proving.set(key, pending);
  }
  return pending;
}

async function askProof(node: NodeAddress): Promise<void> {
  const challenge = newChallenge();
  let proof: unknown;
  try {
    const url = `${nodeBaseUrl(node)}${NODE_PROOF_PATH}?node=${node.id}&challenge=${challenge}`;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), PROOF_TIMEOUT_MS);
    try {
      const response = boundedAnswer(await send(node, url, { signal: abort.signal, redirect: "manual" }), node.name, { maxBytes: PROOF_MAX_BYTES, bodyMs: PROOF_TIMEOUT_MS }, () => abort.abort());
      proof = response.ok ? ((await response.json().catch(() => null)) as { proof?: unknown } | null)?.proof : undefined;
    } finally {
      clearTimeout(timer);
    }
  } catch {
    throw new KilnError("ErrServiceNotAvailable", { node: node.name }, `node ${node.name} does not answer`);
  }
  if (!proofMatches(node.secret, node.id, challenge, proof)) {
    throw new KilnError("ErrNodeUnverified", { node: node.name }, `what answers at node ${node.name}'s address did not prove it holds the node's secret`);
  }
}

/** Forgets every proof: the next call to each node asks again (a node's address or secret changed). */
export function forgetProofs(nodeId?: number): void {
  for (const key of proven.keys()) if (nodeId === undefined || key.startsWith(`${nodeId}|`)) proven.delete(key);
}

export type NodeCallInit = RequestInit & {
  timeoutMs?: number;
  /** How large and how long the answer's body may be (node-answer-bounds); a transfer gives none. */
  bounds?: AnswerBounds;
};

export async function callNode(node: NodeAddress, path: string, init: NodeCallInit = {}): Promise<Response> {
  await proveNode(node);
  const url = new URL(`${nodeBaseUrl(node)}${path}`).toString();
  const headers = new Headers(init.headers);
  headers.set("authorization", nodeAuthorization(node, init.method ?? "GET", url));
  // The time-out covers waiting for the answer to begin; its body has `bounds` of its own (none
  // for a download, which lasts as long as its data).
  const { bounds, timeoutMs, ...request } = init;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs ?? NODE_TIMEOUT_MS);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
  let response: Response;
  const writing = (init.method ?? "GET").toUpperCase() !== "GET";
  if (writing) noteNodeWrite(node.id);
  try {
    // A node never redirects: one that does is not followed with the caller's body.
    response = await send(node, url, { ...request, headers, signal, redirect: "manual" });
  } catch {
    throw new KilnError("ErrServiceNotAvailable", { node: node.name }, `node ${node.name} does not answer`);
  } finally {
    clearTimeout(timer);
    if (writing) noteNodeWrite(node.id);
  }
  if (response.status === 401) {
    timeout.abort();
    throw new KilnError("ErrServiceNotAvailable", { node: node.name }, `node ${node.name} refused the panel's token (check its secret)`);
  }
  // The node in this very process is this program's own code: its answers need no bounds, and the
  // local node's calls (the common case, one machine) pay nothing for them.
  return bounds && !IN_PROCESS.has(nodeBaseUrl(node)) ? boundedAnswer(response, node.name, bounds, () => timeout.abort()) : response;
}

/** The bounds of an operation's answer: none for a transfer (its data is as long as it is). */
export function answerBounds(timeout: NodeTimeout | undefined): AnswerBounds | undefined {
  return timeout === "transfer" ? undefined : NODE_ANSWER_BOUNDS;
}

export type OperationInit = Omit<RequestInit, "method"> & { timeoutMs?: number; /** "?a=b…", appended to the path */ query?: string; /** instead of the operation's (answerBounds) */ bounds?: AnswerBounds };

/** A JSON request body for a node operation: the value as JSON text and its content type, beside any other headers. */
export function jsonInit(body: unknown, headers: Record<string, string> = {}): OperationInit {
  return { headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/**
 * One of the contract's node operations (core/contract/node-operations): its method, its path
 * with `params` filled in, its timeout unless `init` names another.
 */
export async function callOperation(node: NodeAddress, name: NodeOperationName, params: OperationParams = {}, init: OperationInit = {}): Promise<Response> {
  const operation: { method: string; timeout?: NodeTimeout } = NODE_OPERATIONS[name];
  const { query = "", timeoutMs, bounds, ...rest } = init;
  const path = operationPath(name, params);
  const response = await callNode(node, `${path}${query}`, { ...rest, method: operation.method, timeoutMs: timeoutMs ?? NODE_TIMEOUTS[operation.timeout ?? "quick"], bounds: bounds ?? answerBounds(operation.timeout) });
  // What a user's request changed through the node is recorded once it is done (activity/operations).
  if (response.ok) await recordOperation(name, { node, path, query: new URLSearchParams(query), body: typeof rest.body === "string" ? rest.body : undefined, contentType: response.headers.get("content-type") });
  return response;
}

const STATUS_MAX_BYTES = 1024 * 1024;

/** The node's status answer (GET /daemon: version, docker, isolation…), or null when it does not answer with our token. */
export async function nodeStatus(node: NodeAddress, timeoutMs = 3000): Promise<unknown> {
  try {
    // A status is a few hundred bytes: the heartbeat waits no longer for its body than for its start.
    const response = await callOperation(node, "nodeStatus", {}, { timeoutMs, bounds: { maxBytes: STATUS_MAX_BYTES, bodyMs: timeoutMs } });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}
