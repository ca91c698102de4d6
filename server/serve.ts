// Serves the panel app over HTTP with the live-socket proxy beside it (used by `kiln panel`, tests
// and benchmarks alike).
import type { Hono } from "hono";
import { wholeHeadAnswers } from "../core/http/head";
import { liveProxyHandlers } from "./live-proxy/handlers";
import type { ProxySocketData } from "./live-proxy/socket-data";

export function servePanel(app: Hono<any>, options: { port: number; hostname?: string }): Bun.Server<ProxySocketData> {
  // Uploads stream through to the node, so Bun's 128 MB request cap would only cut large files
  // short; the routes that read a body whole limit it themselves (see bodySizeLimit).
  return Bun.serve<ProxySocketData>({ ...options, fetch: wholeHeadAnswers(app.fetch), websocket: liveProxyHandlers(), maxRequestBodySize: Number.MAX_SAFE_INTEGER });
}
