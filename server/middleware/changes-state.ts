// Whether a request changes state: what the same-origin rule guards and after which open sockets
// are re-checked at once. Any method but GET, HEAD and OPTIONS does; a GET does when the route
// table that serves it says so (the daemon proxy's: PufferPanel's extract is a GET).
import type { Context } from "hono";
import { PROXY_SERVER_PREFIX, proxyCall, proxyChangesState } from "../routes/proxy-rules";

export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

export function changesState(c: Context): boolean {
  if (!SAFE_METHODS.has(c.req.method)) return true;
  // Every request asks (middleware/recheck-sockets): the raw path is parsed only for the proxy's.
  if (!c.req.path.startsWith(PROXY_SERVER_PREFIX)) return false;
  const call = proxyCall(c.req.path, new URL(c.req.url).pathname);
  return call !== null && proxyChangesState(c.req.method, call.rest);
}
