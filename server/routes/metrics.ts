// GET /metrics: Prometheus metrics (docs/metrics.md), for a caller holding the metrics token and
// no one else: a session or an admin's cookie is not enough, and with no token set metrics are off.
import { Hono } from "hono";
import pkg from "../../package.json";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { checkMetricsToken, flavorFor, OPENMETRICS_CONTENT_TYPE, renderMetrics, TEXT_CONTENT_TYPE, type HttpMetrics } from "../metrics";
import { openSocketCount } from "../live-proxy/revocation";

export function metricsRoutes(deps: Deps, http: HttpMetrics) {
  const app = new Hono<KilnEnv>();
  app.get("/metrics", async (c) => {
    await checkMetricsToken(deps.db, c.req.header("authorization"));
    const flavor = flavorFor(c.req.header("accept"));
    const text = await renderMetrics(deps.db, flavor, { http, version: pkg.version, openSockets: openSocketCount() });
    return c.body(text, 200, { "content-type": flavor === "openmetrics" ? OPENMETRICS_CONTENT_TYPE : TEXT_CONTENT_TYPE, "cache-control": "no-store" });
  });
  return app;
}
