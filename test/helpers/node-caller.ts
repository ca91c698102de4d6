// Calls a node's API with a fresh token per call: objects go as JSON, strings as text. Shared
// by the test node helper and the daemon benchmarks.
import { signNodeToken } from "../../core/node-token";

export interface NodeCaller {
  headers(): Record<string, string>;
  call(method: string, path: string, body?: unknown): Promise<Response>;
  /** Like call, and throws on a failed answer; returns the parsed JSON (null when empty). */
  json<T = any>(method: string, path: string, body?: unknown): Promise<T>;
}

export function nodeCaller(base: string, secret: string): NodeCaller {
  const headers = () => ({ authorization: `Bearer ${signNodeToken(secret)}` });
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...headers(), ...(body !== undefined && typeof body !== "string" ? { "content-type": "application/json" } : {}) },
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
