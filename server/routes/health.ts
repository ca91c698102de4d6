// For load balancers and orchestrators: GET /healthz answers while the process runs; GET /readyz
// answers 200 only while the database answers with every migration applied (else 503), and names
// the panel process, so a test or an operator sees which panel behind a balancer answered.
import { Hono } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { THIS_PANEL } from "../services/cluster/instance";
import { readiness } from "../services/cluster/readiness";

export function healthRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const state = await readiness(deps.db);
    return c.json({ ...state, panel: THIS_PANEL }, state.ready ? 200 : 503);
  });
  return app;
}
