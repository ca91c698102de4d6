// The node's side of mods and plugins, under /daemon/server/{id}/mods: what the server is, what
// is in its add-on folder, and changes (started, followed, undone). The panel checks manageMods;
// every value is checked again here (daemon/mods) before it names a file or a download.
import { Hono } from "hono";
import { KilnError } from "../../core/errors";
import { OWNERS_CALL_HEADER, ownersCall } from "../../core/contract";
import type { ServerManager } from "../servers/manager";
import { readJson } from "../http/body";
import type { ModChanges } from "../mods/changes";
import { serverPlatform } from "../mods/stated-platform";

export function modRoutes(manager: ServerManager, changes: ModChanges) {
  const app = new Hono();

  app.get("/:id/mods/platform", async (c) => {
    return c.json(await serverPlatform(manager.get(c.req.param("id"))));
  });

  app.get("/:id/mods/installed", async (c) => {
    const id = c.req.param("id");
    const folder = c.req.query("folder");
    if (folder !== "mods" && folder !== "plugins") throw new KilnError("ErrFieldRequired", { field: "folder" });
    return c.json(await changes.listing(id, folder));
  });

  app.post("/:id/mods/changes", async (c) => c.json(changes.start(c.req.param("id"), await readJson(c), c.req.header("x-kiln-by") ?? ""), 202));

  // A modpack: a change like the others (same journal, undo and status), laid over the whole folder.
  // A .mrpack the user uploads: streamed to the node's own folder, answered with its id and hash.
  app.post("/:id/mods/packs/uploads", async (c) => c.json(await changes.uploadPack(c.req.param("id"), c.req.raw.body, ownersCall(c.req.header(OWNERS_CALL_HEADER))), 201));
  app.get("/:id/mods/packs/installed", (c) => c.json({ pack: changes.installedPack(c.req.param("id")) }));
  app.post("/:id/mods/packs/read", async (c) => c.json(await changes.readPack(c.req.param("id"), await readJson(c), ownersCall(c.req.header(OWNERS_CALL_HEADER)))));
  app.post("/:id/mods/packs", async (c) => c.json(changes.startPack(c.req.param("id"), await readJson(c), c.req.header("x-kiln-by") ?? ""), 202));

  // A version switch: a change too (its status, and its undo, which restores the backup taken before it).
  app.post("/:id/mods/versions", async (c) => c.json(changes.startSwitch(c.req.param("id"), await readJson(c), c.req.header("x-kiln-by") ?? ""), 202));

  app.get("/:id/mods/changes/:changeId", (c) => c.json(changes.status(c.req.param("id"), c.req.param("changeId"))));

  app.post("/:id/mods/changes/:changeId/undo", async (c) => c.json(await changes.undo(c.req.param("id"), c.req.param("changeId"))));

  return app;
}
