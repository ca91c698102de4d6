// Serves the panel app over HTTP with the live-socket proxy beside it (used by `kiln panel`, tests
// and benchmarks alike).
import type { Hono } from "hono";
import { socketProxyHandlers, type ProxySocketData } from "./socket-proxy";

export function servePanel(app: Hono<any>, options: { port: number; hostname?: string }): Bun.Server<ProxySocketData> {
  return Bun.serve<ProxySocketData>({ ...options, fetch: app.fetch, websocket: socketProxyHandlers });
}
