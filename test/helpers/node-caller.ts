// Calls a node's API as the panel does: a fresh token per call, signed for that method and URL
// (core/node-token); objects go as JSON, strings as text. Shared by the test node helper and the
// daemon benchmarks.
import { requestTarget, signNodeToken } from "../../core/node-token";

export interface NodeCaller {
  /** The Authorization header for one request: its method and full URL (ws:// for a socket). */
  headers(method: string, url: string): Record<string, string>;
  call(method: string, path: string, body?: unknown): Promise<Response>;
  /** Like call, and throws on a failed answer; returns the parsed JSON (null when empty). */
  json<T = any>(method: string, path: string, body?: unknown): Promise<T>;
}

/** A token for one request to a node holding `secret` (node id 0: the test node's config names none). */
export function nodeAuthorization(secret: string, method: string, url: string, nodeId = 0): string {
  return `Bearer ${signNodeToken(secret, { direction: "to-node", nodeId, method, target: requestTarget(url.replace(/^ws/, "http")) })}`;
}

export function nodeCaller(base: string, secret: string): NodeCaller {
  const headers = (method: string, url: string) => ({ authorization: nodeAuthorization(secret, method, url) });
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...headers(method, `${base}${path}`), ...(body !== undefined && typeof body !== "string" ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  return {
    headers,
    call,
    async json(method, path, body) {
      const response = await call(method, path, body);
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
      return text ? JSON.parse(text) : null;
    },
  };
}
