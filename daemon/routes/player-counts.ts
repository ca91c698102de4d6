// GET /daemon/player-counts?ids=a,b,…: the players online and allowed on each of several servers,
// as the node last asked their games, in one call (the panel's list API asks once per node, not
// once per server). Counts only; null when a server is stopped or has no figure; ids this node
// does not hold are left out.
import { Hono } from "hono";
import { KilnError } from "../../core/errors";
import { playerCounts, type PlayerCounts } from "../../core/players/players-state";
import type { ServerManager } from "../servers/manager";
import { MAX_IDS_PER_CALL } from "../../core/live";

/** The distinct ids of ?ids=a,b,…, at most MAX_IDS_PER_CALL. */
export function idsOf(query: string | undefined): string[] {
  const ids = [...new Set((query ?? "").split(",").filter(Boolean))];
  if (ids.length > MAX_IDS_PER_CALL) throw new KilnError("ErrFieldTooLarge", { field: "ids", max: MAX_IDS_PER_CALL });
  return ids;
}

export function playerCountRoutes(manager: ServerManager) {
  const app = new Hono();
  app.get("/", (c) => {
    const ids = idsOf(c.req.query("ids"));
    const counts: Record<string, PlayerCounts> = {};
    for (const id of ids) {
      const server = manager.find(id);
      if (server) counts[id] = playerCounts(server.players.current());
    }
    return c.json({ counts });
  });
  return app;
}
