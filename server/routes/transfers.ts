// /api/servers/{id}/transfer: move a server to another node (POST, 202), watch it (GET), cancel it
// (DELETE); services/transfers decides and runs it.
import { Hono } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin } from "../middleware/require";
import { readBody } from "../request";
import { cancelTransfer, latestTransfer, startTransfer } from "../services/transfers";

export function transferRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/api/servers/:id/transfer", requireLogin());
  app.post("/api/servers/:id/transfer", async (c) => c.json(await startTransfer(deps.db, c.get("user")!, c.req.param("id")!, await readBody(c)), 202));
  app.get("/api/servers/:id/transfer", async (c) => c.json(await latestTransfer(deps.db, c.get("user")!, c.req.param("id")!)));
  app.delete("/api/servers/:id/transfer", async (c) => {
    await cancelTransfer(deps.db, c.get("user")!, c.req.param("id")!);
    return c.body(null, 202);
  });
  return app;
}
