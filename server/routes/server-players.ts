// /api/servers/{id}/players/{list} and …/players/{name}/kick: a Minecraft Java server's whitelist,
// operators, bans and IP bans, the whitelist switch and kicks, through
// services/players (managePlayers, and every value checked before a node is asked).
import { Hono, type Context } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin } from "../middleware/require";
import { readBody } from "../request";
import { playersFor } from "../services/players";

export function serverPlayerRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/api/servers/:id/players/*", requireLogin());
  const players = async (c: Context<KilnEnv>) => await playersFor(deps.db, c.get("user")!, c.req.param("id")!);
  // A kick's reason is optional: no body at all is a kick without one.
  const optionalBody = async (c: Context<KilnEnv>): Promise<Record<string, unknown>> => ((await c.req.raw.clone().text()) === "" ? {} : readBody(c));

  app.post("/api/servers/:id/players/whitelist/enabled", async (c) => c.json(await (await players(c)).setWhitelist((await readBody(c)).enabled)));

  app.post("/api/servers/:id/players/:name/kick", async (c) => {
    const body = await optionalBody(c);
    await (await players(c)).kick(c.req.param("name"), body.reason);
    return c.body(null, 204);
  });

  app.get("/api/servers/:id/players/:list", async (c) => c.json(await (await players(c)).list(c.req.param("list"), c.req.query())));
  app.post("/api/servers/:id/players/:list", async (c) => c.json(await (await players(c)).add(c.req.param("list"), await readBody(c))));
  app.delete("/api/servers/:id/players/:list", async (c) => c.json(await (await players(c)).remove(c.req.param("list"), await readBody(c))));

  return app;
}
