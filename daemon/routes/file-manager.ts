// The file manager's operations beyond spec section 7's file API (issue 19): move and rename,
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
import { posix } from "node:path";
import type { Jail } from "../files/jail";
import { isFolder } from "../files/operations";
import { collectSources } from "../files/archive-sources";
import { denied, type FileDenylist } from "../files/denylist";

export function fileManagerRoutes(manager: ServerManager) {
  const app = new Hono();
  const jailOf = (c: Context) => manager.get(c.req.param("id")!).jail;
  // The template's fileDenylist: a denied file is neither the source nor the target of anything here.
  const denylistOf = (c: Context) => manager.get(c.req.param("id")!).denylist;

  app.post("/:id/move", async (c) => {
    const { from, to } = await fromTo(c);
    checkMove(jailOf(c), denylistOf(c), from, to);
    return c.json({ path: movePath(jailOf(c), from, to) });
  });

  app.post("/:id/copy", async (c) => {
    const { from, to } = await fromTo(c);
    checkMove(jailOf(c), denylistOf(c), from, to);
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

  app.get("/:id/zip", (c) => {
    const jail = jailOf(c);
    const denylist = denylistOf(c);
    return zipDownload(jail, (c.req.queries("path") ?? []).map(serverRooted), (path) => denylist.blocks(jail, path));
  });

  return app;
}

/**
 * A move or copy neither takes a denied file (a folder's too: an anchored pattern would not
 * follow it to its new name) nor lands on a denied name (onto a folder, inside it).
 */
function checkMove(jail: Jail, denylist: FileDenylist, from: string, to: string): void {
  if (denylist.empty) return;
  const target = isFolder(jail, to) ? posix.join(jail.normalize(to), posix.basename(jail.normalize(from))) : to;
  denylist.check(jail, from, to, target);
  const inside = collectSources(jail, "", [from]).find((entry) => denylist.blocks(jail, entry.path));
  if (inside) throw denied(inside.path);
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
