// The files tab's plain forms (without script, every control of the file manager must do
// something): New file and New folder, Upload, and the listing's form, whose buttons act on a
// row ("row" = "<action>:<name>") or on the ticked boxes ("do" with "pick"s). Actions that need
// a second answer (delete: are you sure; move and copy: where to; rename: the new name; chmod:
// the mode) show the files tab again with that question as a form ("pending"), which posts
// back here with "confirm". Each ends in a redirect to the folder with a toast, or the tab shown
// again with the error. Downloads need viewServerFiles; everything else putServerFiles.
import type { Context, Hono } from "hono";
import { KilnError } from "../../../core/errors";
import { archiveName, baseName, cleanNewName, encodePath, joinPath, normalizePath } from "../../../core/files";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { readForm } from "../../request";
import { assertAllowed, type ServerAccess, type ServerEntry } from "../../services/servers";
import { NodeFiles } from "../../services/files/node-files";
import { readFormUpload } from "../../services/files/upload-form";
import { filesPageUrl } from "../../../core/files/page-urls";
import { isEntryName, nameFromForm, pathFromForm, typedPath } from "../../../core/files/form-name";
import type { FilePending, FilePendingAction } from "../../../views/pages/server/FilePendingCard";
import type { ServerPageHost } from "./host";


interface Call {
  files: NodeFiles;
  form: Record<string, unknown>;
  folder: string;
  server: ServerEntry;
  access: ServerAccess;
}

const ASKING: readonly string[] = ["delete", "move", "copy", "rename", "mode"] satisfies FilePendingAction[];

export function fileFormRoutes(app: Hono<KilnEnv>, deps: Deps, host: ServerPageHost): void {
  /** The files tab at `folder` again, with an error or a pending question. */
  const showTab = (c: Context<KilnEnv>, server: ServerEntry, access: ServerAccess, files: { folder: string; pending?: FilePending }, error?: KilnError) =>
    host.page(c, server, access, "files", { files, error: error && host.message(c, error) }, error?.status);
  /**
   * Runs `work` for the files tab: a redirect with the toast it names (or its own answer), or
   * the tab again at the folder with its error. `fromQuery`: the folder is in the address and the
   * body is left for `work` (an upload streams it).
   */
  const attempt = async (c: Context<KilnEnv>, needs: "viewServerFiles" | "putServerFiles", fromQuery: boolean, work: (call: Call) => Promise<string | Response>) => {
    const { id, server, access } = await host.load(c, needs);
    let folder = normalizePath(c.req.query("folder") ?? "");
    try {
      const form = fromQuery ? {} : await readForm(c, { all: true });
      // The hidden field spells a folder holding a line break apart (core/files/form-name).
      if (!fromQuery) folder = normalizePath(pathFromForm(text(form.folder)));
      const outcome = await work({ files: new NodeFiles(deps.db, id), form, folder, server, access });
      if (outcome instanceof Response) return outcome;
      host.flash(c, outcome);
      return c.redirect(filesPageUrl(id, folder), 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return showTab(c, server, access, { folder }, error);
    }
  };
  app.post("/server/:id/files/new", requirePageLogin(), (c) =>
    attempt(c, "putServerFiles", false, async ({ files, form, folder }) => {
      const name = cleanNewName(text(form.name));
      if (name === null) throw new KilnError("ErrFieldRequired", { field: "name" });
      const listing = await files.list(folder);
      // Creating a file over an existing one would empty it: a name taken is refused.
      if (listing?.files.some((f) => f.name === name)) throw new KilnError("ErrFileExists", { path: joinPath(folder, name) });
      if (text(form.kind) === "folder") await files.makeFolder(joinPath(folder, name));
      else {
        const empty = new FormData();
        empty.append("file", new Blob([]), name);
        await files.upload(joinPath(folder, name), empty);
      }
      return "files.done.created";
    }),
  );

  app.post("/server/:id/files/upload", requirePageLogin(), (c) =>
    attempt(c, "putServerFiles", true, async ({ files, folder }) => {
      const upload = await readFormUpload(c.req.raw.body);
      // Bun closes a connection idle for 10 s; a large upload's answer comes only at its end.
      (c.env as Bun.Server<unknown> | undefined)?.timeout?.(c.req.raw, 0);
      await files.upload(joinPath(folder, upload.name), upload.body, c.req.header("content-type") ?? "", c.req.raw.signal);
      return "files.uploaded";
    }),
  );

  app.post("/server/:id/files/act", requirePageLogin(), async (c) => {
    const id = c.req.param("id");
    return attempt(c, "viewServerFiles", false, async ({ files, form, folder, server, access }) => {
      const { action, names } = requested(form);
      const paths = names.map((name) => joinPath(folder, name));
      if (action === "download") {
        if (!paths.length) throw new KilnError("ErrFieldRequired", { field: "pick" });
        const one = paths.length === 1 ? (await files.list(folder))?.files.find((f) => f.name === names[0] && f.isFile) : undefined;
        const url = one ? `/proxy/daemon/server/${id}/file/${encodePath(paths[0]!)}` : `/proxy/daemon/server/${id}/zip?${paths.map((p) => `path=${encodeURIComponent(p)}`).join("&")}`;
        return c.redirect(url, 303);
      }
      assertAllowed(access, "putServerFiles");
      if (action === "archiveFolder") {
        const listing = await files.list(folder);
        if (!listing?.files.length) throw new KilnError("ErrFieldRequired", { field: "pick" });
        await files.archive(joinPath(folder, archiveName(baseName(folder), listing.files.map((f) => f.name))), listing.files.map((f) => joinPath(folder, f.name)));
        return "files.done.archived";
      }
      if (!paths.length) throw new KilnError("ErrFieldRequired", { field: "pick" });
      if (action === "archive") {
        const listing = await files.list(folder);
        await files.archive(joinPath(folder, archiveName(names.length === 1 ? names[0]! : baseName(folder), listing?.files.map((f) => f.name) ?? [])), paths);
        return "files.done.archived";
      }
      if (action === "extract") {
        // Asks where first, with what it would replace there; a destination changed in that form
        // is previewed again before anything is extracted.
        const previewed = pathFromForm(text(form.previewed));
        const destination = form.target === undefined ? folder : normalizePath(typedPath(text(form.target), previewed));
        const preview = await files.previewExtract(paths[0]!, destination);
        if (text(form.confirm) !== "1" || previewed !== preview.destination || preview.conflicts.length > 0) {
          return showTab(c, server, access, { folder, pending: { action: "extract", folder, names: names.slice(0, 1), preview } });
        }
        if (!preview.destinationExists) await files.makeFolder(preview.destination);
        await files.extract(paths[0]!, preview.destination);
        return "files.done.extracted";
      }
      if (!ASKING.includes(action)) throw new KilnError("ErrFieldRequired", { field: "do" });
      const pendingAction = action as FilePendingAction;
      if (text(form.confirm) !== "1") {
        const mode = pendingAction === "mode" ? (await files.list(folder))?.files.find((f) => f.name === names[0])?.mode : undefined;
        return showTab(c, server, access, { folder, pending: { action: pendingAction, folder, names: pendingAction === "rename" || pendingAction === "mode" ? names.slice(0, 1) : names, mode } });
      }
      switch (pendingAction) {
        case "delete":
          for (const path of paths) await files.remove(path);
          return "files.done.deleted";
        case "move":
        case "copy": {
          const target = normalizePath(typedPath(text(form.target), folder));
          for (const [i, path] of paths.entries()) await (pendingAction === "copy" ? files.copy(path, joinPath(target, names[i]!)) : files.move(path, joinPath(target, names[i]!)));
          return pendingAction === "copy" ? "files.done.copied" : "files.done.moved";
        }
        case "rename": {
          const name = cleanNewName(text(form.name));
          if (name === null) throw new KilnError("ErrFieldRequired", { field: "name" });
          await files.move(paths[0]!, joinPath(folder, name));
          return "files.done.renamed";
        }
        case "mode":
          await files.mode(paths[0]!, text(form.mode).trim());
          return "files.done.mode";
        case "extract":
          // Answered above, with its own preview step.
          throw new KilnError("ErrFieldRequired", { field: "do" });
      }
    });
  });
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/**
 * The action and the names it applies to: a row's own button, or the selection's. Names come as
 * the file manager wrote them into the form (core/files/form-name) and are taken untrimmed: ".. "
 * and "a " are names a folder holds, and their rows must reach them.
 */
function requested(form: Record<string, unknown>): { action: string; names: string[] } {
  const row = text(form.row);
  const entry = (value: string) => {
    const name = nameFromForm(value);
    return name !== null && isEntryName(name) ? [name] : [];
  };
  if (row.includes(":")) return { action: row.slice(0, row.indexOf(":")), names: entry(row.slice(row.indexOf(":") + 1)) };
  const picks = ([] as unknown[]).concat(form.pick ?? []).flatMap((p) => (typeof p === "string" ? entry(p) : []));
  return { action: text(form.do), names: [...new Set(picks)] };
}
