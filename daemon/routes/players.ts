// The daemon's Minecraft player management, under /daemon/server/{id}: the four lists, the
// whitelist switch, kicks and who is online. The panel checks managePlayers; every value is
// checked by the service (daemon/players) before it reaches a console or a file.
import { Hono } from "hono";
import { playerList } from "../../core/players/player-lists";
import type { PlayerManagement } from "../players/service";
import { readJson } from "../http/body";

type Body = { name?: unknown; ip?: unknown; reason?: unknown; enabled?: unknown } | null;

export function playerRoutes(players: PlayerManagement) {
  const app = new Hono();
  const value = (body: Body) => body?.ip ?? body?.name;

  app.get("/:id/online-players", async (c) => c.json(await players.online(c.req.param("id"))));

  app.post("/:id/players/whitelist/enabled", async (c) => {
    const body = (await readJson(c)) as Body;
    return c.json(await players.setWhitelist(c.req.param("id"), body?.enabled));
  });

  app.post("/:id/players/:name/kick", async (c) => {
    // The reason is optional: no body at all is a kick without one.
    const body = (c.req.header("content-length") === "0" || !c.req.header("content-type") ? null : await readJson(c)) as Body;
    await players.kick(c.req.param("id"), c.req.param("name"), body?.reason);
    return c.body(null, 204);
  });

  app.get("/:id/players/:list", (c) => c.json(players.list(c.req.param("id"), playerList(c.req.param("list")), c.req.query())));

  app.post("/:id/players/:list", async (c) => {
    const body = (await readJson(c)) as Body;
    return c.json(await players.add(c.req.param("id"), playerList(c.req.param("list")), value(body), body?.reason));
  });

  app.delete("/:id/players/:list", async (c) => {
    const body = (await readJson(c)) as Body;
    return c.json(await players.remove(c.req.param("id"), playerList(c.req.param("list")), value(body)));
  });

  return app;
}
