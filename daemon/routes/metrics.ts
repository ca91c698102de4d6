// GET /daemon/metrics: the node's figures for the panel's Prometheus metrics (./../metrics).
import { Hono } from "hono";
import pkg from "../../package.json";
import type { ServerManager } from "../servers/manager";
import { nodeMetrics } from "../metrics";

export function metricsRoutes(manager: ServerManager, dataDir: string) {
  const app = new Hono();
  app.get("/", async (c) => c.json(await nodeMetrics(manager.list(), dataDir, pkg.version)));
  return app;
}
