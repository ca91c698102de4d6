// GET /daemon/list-statuses?ids=a,b,…: for each of several servers, its status as GET …/status
// answers it and its players as GET …/players does, in one call: a list of ten servers asked its
// node ten to twenty times per page before. Ids this node does not hold are left out.
import { Hono } from "hono";
import type { ListStatus } from "../../core/live";
import type { ServerManager } from "../servers/manager";
import { idsOf } from "./player-counts";

export function listStatusRoutes(manager: ServerManager) {
  const app = new Hono();
  app.get("/", (c) => {
    const servers: Record<string, ListStatus> = {};
    for (const id of idsOf(c.req.query("ids"))) {
      const server = manager.find(id);
      if (server) servers[id] = { status: server.status(), players: server.players.current() };
    }
    return c.json({ servers });
  });
  return app;
}
