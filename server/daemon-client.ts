// How the panel calls a node: its private address, with a fresh token signed by the node's
// secret on every call. A node that does not answer is ErrServiceNotAvailable; a node that
// refuses the token (a wrong secret) is the same to the user, never a 401 that would log them out.
import { KilnError } from "../core/errors";
import { signNodeToken } from "../core/node-token";

export interface NodeAddress {
  name: string;
  privateHost: string;
  privatePort: number;
  secret: string;
}

/** How long the panel waits for a node before giving up (power actions with wait take longer). */
export const NODE_TIMEOUT_MS = 10_000;

type Handler = (request: Request) => Response | Promise<Response>;
/** Nodes running in this very process (the local node of `kiln panel`), by base URL. */
const IN_PROCESS = new Map<string, Handler>();

/**
 * Calls to `baseUrl` go straight to `handler`, without a loopback connection: request and
 * answer bodies pass as streams, so uploads and downloads to the local node are copied twice less.
 */
export function serveInProcess(baseUrl: string, handler: Handler): void {
  IN_PROCESS.set(baseUrl, handler);
}

export function nodeBaseUrl(node: NodeAddress): string {
  const host = node.privateHost.includes(":") ? `[${node.privateHost}]` : node.privateHost;
  return `http://${host}:${node.privatePort}`;
}

export function nodeAuthHeader(node: NodeAddress): string {
  return `Bearer ${signNodeToken(node.secret)}`;
}

export async function callNode(node: NodeAddress, path: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", nodeAuthHeader(node));
  // The time-out covers waiting for the answer to begin, not streaming its body (a download).
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), init.timeoutMs ?? NODE_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
  let response: Response;
  try {
    const base = nodeBaseUrl(node);
    const local = IN_PROCESS.get(base);
    response = local ? await local(new Request(`${base}${path}`, { ...init, headers, signal })) : await fetch(`${base}${path}`, { ...init, headers, signal });
  } catch {
    throw new KilnError("ErrServiceNotAvailable", { node: node.name }, `node ${node.name} does not answer`);
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 401) throw new KilnError("ErrServiceNotAvailable", { node: node.name }, `node ${node.name} refused the panel's token (check its secret)`);
  return response;
}

/** The node's status answer (GET /daemon: version, docker, isolation…), or null when it does not answer with our token. */
export async function nodeStatus(node: NodeAddress, timeoutMs = 3000): Promise<unknown> {
  try {
    const response = await callNode(node, "/daemon", { timeoutMs });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}
