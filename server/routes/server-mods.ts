// /api/servers/{id}/mods/…: a Minecraft Java server's mods or plugins (what it is, search, a
// project, plans to install or remove, applying them, changes and their undo, the installed
// files, the Minecraft version), and /api/servers/{id}/modpacks/…, through services/mods (manageMods, every value
// checked, the node checking again).
import { Hono, type Context } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin } from "../middleware/require";
import { readBody } from "../request";
import { modsFor } from "../services/mods";
import { modpacksFor } from "../services/mods/packs";
import { versionsFor } from "../services/mods/versions";
import type { Plan, PlanWarning } from "../../core/mods/types";
import { warningMessage } from "../../core/mods/warnings";

/** A plan as the API answers it: each warning with its sentence in the request's language beside its code. */
function withMessages(c: Context<KilnEnv>, plan: Plan): Plan & { warnings: (PlanWarning & { message: string })[] } {
  const t = c.get("t");
  return { ...plan, warnings: plan.warnings.map((warning) => ({ ...warning, message: (({ key, params }) => t(key, params))(warningMessage(warning)) })) };
}

export function serverModRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/api/servers/:id/mods/*", requireLogin());
  app.use("/api/servers/:id/modpacks/*", requireLogin());
  const mods = async (c: Context<KilnEnv>) => await modsFor(deps.db, c.get("user")!, c.req.param("id")!);
  const packs = async (c: Context<KilnEnv>) => await modpacksFor(deps.db, c.get("user")!, c.req.param("id")!);
  const versions = async (c: Context<KilnEnv>) => await versionsFor(deps.db, c.get("user")!, c.req.param("id")!);

  app.get("/api/servers/:id/mods/platform", async (c) => c.json(await (await mods(c)).platform()));
  app.get("/api/servers/:id/mods/search", async (c) => c.json(await (await mods(c)).search(c.req.query())));
  app.get("/api/servers/:id/mods/projects/:projectId", async (c) => c.json(await (await mods(c)).project(c.req.param("projectId"), c.req.query("source"))));
  app.get("/api/servers/:id/mods/installed", async (c) => c.json((await (await mods(c)).installed()).files));
  app.get("/api/servers/:id/mods/changes", async (c) => c.json({ undoable: await (await mods(c)).undoable() }));
  app.post("/api/servers/:id/mods/plan", async (c) => c.json(withMessages(c, await (await mods(c)).planInstall(await readBody(c)))));
  app.post("/api/servers/:id/mods/remove", async (c) => c.json(withMessages(c, await (await mods(c)).planRemove(await readBody(c)))));
  app.post("/api/servers/:id/mods/plan/:planId/apply", async (c) => c.json(await (await mods(c)).apply(c.req.param("planId")), 202));
  app.post("/api/servers/:id/mods/enabled", async (c) => c.json(await (await mods(c)).setEnabled(await readBody(c)), 202));
  app.get("/api/servers/:id/mods/changes/:changeId", async (c) => c.json(await (await mods(c)).changeStatus(c.req.param("changeId"))));
  app.post("/api/servers/:id/mods/changes/:changeId/undo", async (c) => c.json(await (await mods(c)).undo(c.req.param("changeId"))));

  // The Minecraft version: planned and applied here; its progress and undo are the changes' above.
  app.get("/api/servers/:id/mods/versions", async (c) => c.json(await (await versions(c)).list()));
  app.post("/api/servers/:id/mods/versions/plan", async (c) => c.json(await (await versions(c)).plan(await readBody(c))));
  app.post("/api/servers/:id/mods/versions/plan/:planId/apply", async (c) => c.json(await (await versions(c)).apply(c.req.param("planId")), 202));

  // Modpacks: planned and applied here; their progress and undo are the changes' above.
  app.post("/api/servers/:id/modpacks/uploads", async (c) => c.json(await (await packs(c)).upload(c.req.raw.body, c.req.raw.signal), 201));
  app.get("/api/servers/:id/modpacks/installed", async (c) => c.json(await (await packs(c)).installed()));
  app.get("/api/servers/:id/modpacks/search", async (c) => c.json(await (await packs(c)).search(c.req.query())));
  app.post("/api/servers/:id/modpacks/plan", async (c) => c.json(await (await packs(c)).plan(await readBody(c))));
  app.post("/api/servers/:id/modpacks/plan/:planId/apply", async (c) => c.json(await (await packs(c)).apply(c.req.param("planId")), 202));

  return app;
}
