// The file manager's operations beyond the plain file API (./files): move and rename,
// copy, permission modes, search by name, and a download of several entries as one zip. Paths
// travel in JSON bodies or query parameters, relative to the server's folder (a leading "/"
// meaning that folder, as for the archive call); every one goes through the server's jail.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { serverRooted } from "../../core/files/server-rooted";
import type { ServerManager } from "../servers/manager";
import { movePath } from "../files/move";
import { copyPath } from "../files/copy";
import { changeMode, parseMode } from "../files/mode";
import { searchNames } from "../files/search";
import { zipDownload } from "../files/archive-download";
import { readJson } from "../http/body";
import type { ExtractLimits } from "../files/extract-limits";

export function fileManagerRoutes(manager: ServerManager, limits: ExtractLimits) {
  const app = new Hono();
  const jailOf = (c: Context) => manager.get(c.req.param("id")!).jail;
  // The template's fileDenylist (daemon/files/denylist): nothing here takes denied content out
  // from under its name or puts content under a denied one.
  const denylistOf = (c: Context) => manager.get(c.req.param("id")!).denylist;

  app.post("/:id/move", async (c) => {
    const { from, to } = await fromTo(c);
    denylistOf(c).checkMove(jailOf(c), from, to);
    return c.json({ path: movePath(jailOf(c), from, to) });
  });

  app.post("/:id/copy", async (c) => {
    const { from, to } = await fromTo(c);
    denylistOf(c).checkMove(jailOf(c), from, to);
    return c.json({ path: await copyPath(jailOf(c), from, to) });
  });

  app.post("/:id/mode", async (c) => {
    const body = (await readJson(c)) as Record<string, unknown> | null;
    const path = requiredPath(body, "path");
    denylistOf(c).check(jailOf(c), path);
    changeMode(jailOf(c), path, parseMode(body?.mode));
    return c.body(null, 204);
  });

  app.get("/:id/search", async (c) => {
    const query = (c.req.query("q") ?? "").trim();
    if (query === "") throw new KilnError("ErrFieldRequired", { field: "q" }, "a name to search for is required");
    return c.json(await searchNames(jailOf(c), serverRooted(c.req.query("path") ?? ""), query));
  });

  app.get("/:id/zip", async (c) => {
    const jail = jailOf(c);
    const denylist = denylistOf(c);
    return await zipDownload(jail, (c.req.queries("path") ?? []).map(serverRooted), (path) => denylist.blocks(jail, path), limits);
  });

  return app;
}

async function fromTo(c: Context): Promise<{ from: string; to: string }> {
  const body = (await readJson(c)) as Record<string, unknown> | null;
  return { from: requiredPath(body, "from"), to: requiredPath(body, "to") };
}

function requiredPath(body: Record<string, unknown> | null, field: string): string {
  const value = body && typeof body === "object" ? body[field] : undefined;
  if (typeof value !== "string" || value.trim() === "") throw new KilnError("ErrFieldRequired", { field }, `${field} is required`);
  return serverRooted(value);
}
