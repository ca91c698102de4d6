// The Players tab's plain forms: add to and remove from the four lists, the whitelist switch and
// kicks, for holders of managePlayers (services/players checks it and every value). Each ends in
// a redirect with a toast (done, or nothing to change), or the tab again with the refusal.
import type { Hono } from "hono";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { playersFor } from "../../services/players";
import type { ServerPageHost } from "./host";

const outcome = ({ changed }: { changed: boolean }) => (changed ? "players.changed" : "players.unchanged");

export function playerFormRoutes(app: Hono<KilnEnv>, deps: Deps, { form }: ServerPageHost): void {
  app.post("/server/:id/players/whitelist/enabled", requirePageLogin(), form("managePlayers", "players", async (c, id, body) =>
    outcome(await (await playersFor(deps.db, c.get("user")!, id)).setWhitelist(body.enabled === "true" ? true : body.enabled === "false" ? false : body.enabled)),
  ));

  app.post("/server/:id/players/kick", requirePageLogin(), form("managePlayers", "players", async (c, id, body) => {
    await (await playersFor(deps.db, c.get("user")!, id)).kick(body.name, body.reason);
    return "players.kicked";
  }));

  app.post("/server/:id/players/:list/add", requirePageLogin(), form("managePlayers", "players", async (c, id, body) => outcome(await (await playersFor(deps.db, c.get("user")!, id)).add(c.req.param("list")!, body))));

  app.post("/server/:id/players/:list/remove", requirePageLogin(), form("managePlayers", "players", async (c, id, body) => outcome(await (await playersFor(deps.db, c.get("user")!, id)).remove(c.req.param("list")!, body))));
}
