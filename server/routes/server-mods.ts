// /api/servers/{id}/mods/…: a Minecraft Java server's mods or plugins (what it is, search, a
// project, plans to install or remove, applying them, changes and their undo, the installed
// files), through services/mods (manageMods, every value checked, the node checking again).
import { Hono, type Context } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin } from "../middleware/require";
import { readBody } from "../request";
import { modsFor } from "../services/mods";

export function serverModRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/api/servers/:id/mods/*", requireLogin());
  const mods = (c: Context<KilnEnv>) => modsFor(deps.db, c.get("user")!, c.req.param("id")!);

  app.get("/api/servers/:id/mods/platform", async (c) => c.json(await mods(c).platform()));
  app.get("/api/servers/:id/mods/search", async (c) => c.json(await mods(c).search(c.req.query())));
  app.get("/api/servers/:id/mods/projects/:projectId", async (c) => c.json(await mods(c).project(c.req.param("projectId"))));
  app.get("/api/servers/:id/mods/installed", async (c) => c.json((await mods(c).installed()).files));
  app.get("/api/servers/:id/mods/changes", async (c) => c.json({ undoable: await mods(c).undoable() }));
  app.post("/api/servers/:id/mods/plan", async (c) => c.json(await mods(c).planInstall(await readBody(c))));
  app.post("/api/servers/:id/mods/remove", async (c) => c.json(await mods(c).planRemove(await readBody(c))));
  app.post("/api/servers/:id/mods/plan/:planId/apply", async (c) => c.json(await mods(c).apply(c.req.param("planId")), 202));
  app.post("/api/servers/:id/mods/enabled", async (c) => c.json(await mods(c).setEnabled(await readBody(c)), 202));
  app.get("/api/servers/:id/mods/changes/:changeId", async (c) => c.json(await mods(c).changeStatus(c.req.param("changeId"))));
  app.post("/api/servers/:id/mods/changes/:changeId/undo", async (c) => c.json(await mods(c).undo(c.req.param("changeId"))));

  return app;
}
