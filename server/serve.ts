// Serves the panel app over HTTP with the live-socket proxy beside it (used by `kiln panel`, tests
// and benchmarks alike).
import type { Hono } from "hono";
import { wholeHeadAnswers } from "../core/http/head";
import { liveProxyHandlers } from "./live-proxy/handlers";
import type { ProxySocketData } from "./live-proxy/socket-data";

export function servePanel(app: Hono<any>, options: { port: number; hostname?: string }): Bun.Server<ProxySocketData> {
  // Uploads stream through to the node, so Bun's 128 MB request cap would only cut large files
  // short; the routes that read a body whole limit it themselves (see bodySizeLimit).
  // development: false whatever NODE_ENV says: Bun's development answer to an error that leaves
  // the app is a page of its stack, source and paths (Bun reads NODE_ENV as the process starts, so
  // server/main.ts setting it later changes nothing here, and the executable sets none).
  return Bun.serve<ProxySocketData>({ ...options, development: false, fetch: wholeHeadAnswers(app.fetch), websocket: liveProxyHandlers(), maxRequestBodySize: Number.MAX_SAFE_INTEGER });
}
