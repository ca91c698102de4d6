// GET /api/servers/{id}/players: who plays now (services/servers/players-query has the rules).
import { Hono } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin } from "../middleware/require";
import { serverPlayers } from "../services/servers/players-query";

export function serverPlayersQueryRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.get("/api/servers/:id/players", requireLogin(), async (c) => c.json(await serverPlayers(deps.db, c.get("user")!, c.req.param("id"))));
  return app;
}
