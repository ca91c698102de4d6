// The Mods tab's plain forms, for holders of manageMods (services/mods checks it and every value):
// what the island does through the API, without script. A plan (install, update, remove, a
// modpack, a version switch) comes back as the tab with the plan to confirm; applying it, a
// switch, and an undo end in a redirect to the tab with a toast; a refusal shows the tab with it.
import type { Context, Hono } from "hono";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { modsFor } from "../../services/mods";
import { modpacksFor } from "../../services/mods/packs";
import { versionsFor } from "../../services/mods/versions";
import type { ServerPageHost } from "./host";
import { KilnError } from "../../../core/errors";
import { formFileBytes } from "../../services/files/form-file";
import { nameFromForm } from "../../../core/files/form-name";

/** An installed file's name as the no-script form sent it (core/files/form-name: a line break spelled apart); anything else as it came, for the service to refuse. */
const formField = (value: unknown) => (typeof value === "string" ? (nameFromForm(value) ?? value) : value);

/** A form's optional field: absent when the form sent none or an empty one. */
const optional = (value: unknown) => (value === "" || value === undefined ? undefined : value);

export function modFormRoutes(app: Hono<KilnEnv>, deps: Deps, { form, load, page, message }: ServerPageHost): void {
  const user = (c: Context<KilnEnv>) => c.get("user")!;

  app.post("/server/:id/mods/plan", requirePageLogin(), form("manageMods", "mods", async (c, id, body) => ({
    modsPlan: { kind: "addons", plan: await (await modsFor(deps.db, user(c), id)).planInstall({ source: optional(body.source), projectId: body.projectId, versionId: optional(body.versionId) }) },
  })));

  app.post("/server/:id/mods/remove", requirePageLogin(), form("manageMods", "mods", async (c, id, body) => ({
    modsPlan: { kind: "addons", plan: await (await modsFor(deps.db, user(c), id)).planRemove({ fileNames: [formField(body.fileName)], withUnneededDependencies: body.withUnneededDependencies === "true" }) },
  })));

  app.post("/server/:id/mods/plan/:planId/apply", requirePageLogin(), form("manageMods", "mods", async (c, id) => {
    await (await modsFor(deps.db, user(c), id)).apply(c.req.param("planId")!);
    return "mods.changeStarted";
  }));

  app.post("/server/:id/mods/enabled", requirePageLogin(), form("manageMods", "mods", async (c, id, body) => {
    await (await modsFor(deps.db, user(c), id)).setEnabled({ fileNames: [formField(body.fileName)], enabled: body.enabled === "true" ? true : body.enabled === "false" ? false : body.enabled });
    return "mods.changeStarted";
  }));

  app.post("/server/:id/mods/changes/:changeId/undo", requirePageLogin(), form("manageMods", "mods", async (c, id) => {
    await (await modsFor(deps.db, user(c), id)).undo(c.req.param("changeId")!);
    return "mods.undo.done";
  }));

  app.post("/server/:id/mods/packs/plan", requirePageLogin(), form("manageMods", "mods", async (c, id, body) => {
    const plan = await (await modpacksFor(deps.db, user(c), id)).plan({ source: optional(body.source), projectId: body.projectId, versionId: optional(body.versionId) });
    // A CurseForge pack is a switch of the server's template: its plan is a version plan.
    return { modsPlan: "what" in plan ? { kind: "switch" as const, plan } : { kind: "pack" as const, plan } };
  }));

  // A .mrpack of the user's: the form's file streamed to the node as the file itself (its body is
  // not read whole, so not through `form`), then planned from the node's copy.
  app.post("/server/:id/mods/packs/upload", requirePageLogin(), async (c) => {
    const { id, server, access } = await load(c, "manageMods");
    try {
      // Bun closes a connection idle for 10 s; a large upload's answer comes only at its end.
      (c.env as Bun.Server<unknown> | undefined)?.timeout?.(c.req.raw, 0);
      const packs = await modpacksFor(deps.db, user(c), id);
      const stored = await packs.upload(formFileBytes(c.req.raw.body, c.req.header("content-type") ?? ""), c.req.raw.signal);
      return page(c, server, access, "mods", { modsPlan: { kind: "pack", plan: await packs.planUpload(stored.upload, stored.sha512) } });
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return page(c, server, access, "mods", { error: message(c, error) }, error.status);
    }
  });

  app.post("/server/:id/mods/packs/plan/:planId/apply", requirePageLogin(), form("manageMods", "mods", async (c, id) => {
    await (await modpacksFor(deps.db, user(c), id)).apply(c.req.param("planId")!);
    return "mods.changeStarted";
  }));

  app.post("/server/:id/mods/versions/plan", requirePageLogin(), form("manageMods", "mods", async (c, id, body) => ({
    modsPlan: { kind: "switch", plan: await (await versionsFor(deps.db, user(c), id)).plan({ gameVersion: trimmed(body.gameVersion), loaderVersion: trimmed(body.loaderVersion), packFileId: trimmed(body.packFileId) }) },
  })));

  app.post("/server/:id/mods/versions/plan/:planId/apply", requirePageLogin(), form("manageMods", "mods", async (c, id) => {
    await (await versionsFor(deps.db, user(c), id)).apply(c.req.param("planId")!);
    return "mods.changeStarted";
  }));
}

/** A typed field without the spaces around it (a form's text is typed, not picked). */
function trimmed(value: unknown): unknown {
  return typeof value === "string" ? value.trim() : value;
}
