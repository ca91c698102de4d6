// The daemon's file API (/file, /archive, /extract under /daemon/server/{id}).
// Every path comes from the URL, segment by segment, and goes through the server's jail. A path
// that begins with "/" (archive sources, an extract destination) starts at the server's root,
// as PufferPanel's clients mean it (core/files/server-rooted).
import { Hono, type Context } from "hono";
import { closeSync } from "node:fs";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import type { ServerManager } from "../servers/manager";
import type { Jail } from "../files/jail";
import { listFolder } from "../files/listing";
import { makeFolder, removePath, writeAtomically, isFolder } from "../files/operations";
import { openRegularFile } from "../files/open-regular";
import { descriptorVersion, currentVersion } from "../files/file-version";
import { assertUnchanged, checkedAtEnd, type WriteConditions } from "../files/write-conditions";
import { descriptorStream } from "../files/descriptor-stream";
import { requestedRange } from "../files/byte-range";
import { createZip } from "../files/archive-create";
import { extractArchive, type ExtractLimits } from "../files/extract";
import { previewExtract } from "../files/extract-preview";
import { multipartBoundary, multipartField } from "../http/multipart";
import { readJson } from "../http/body";
import { serverRooted } from "../../core/files/server-rooted";
import { shownName } from "../../core/files/shown-name";


export function fileRoutes(manager: ServerManager, limits: ExtractLimits) {
  const app = new Hono();
  const jailOf = (c: Context) => manager.get(c.req.param("id")!).jail;
  // The template's fileDenylist: users' hands stay off those files (daemon/files/denylist).
  const denylistOf = (c: Context) => manager.get(c.req.param("id")!).denylist;

  app.get("/:id/file/*", async (c) => {
    const jail = jailOf(c);
    const path = pathAfter(c, "file");
    if (isFolder(jail, path)) return c.json(await listFolder(jail, path));
    denylistOf(c).check(jail, path);
    return download(jail, path, { head: c.req.method === "HEAD", range: c.req.header("range"), ifRange: c.req.header("if-range") });
  });
  app.get("/:id/file", async (c) => c.json(await listFolder(jailOf(c), "")));

  app.put("/:id/file/*", async (c) => {
    const jail = jailOf(c);
    const path = pathAfter(c, "file");
    denylistOf(c).check(jail, path);
    if (c.req.query("folder") === "true") {
      makeFolder(jail, path);
      return c.body(null, 204);
    }
    // A save that names the version it replaces (files/write-conditions) is refused when the file
    // changed since: now, before a byte is read, and again just before the rename.
    const conditions: WriteConditions = { ifMatch: c.req.header("if-match"), ifUnmodifiedSince: c.req.header("if-unmodified-since") };
    assertUnchanged(jail, path, conditions);
    const body = c.req.raw.body;
    if (!body) throw new KilnError("ErrFieldRequired", { field: "file" });
    const size = await writeAtomically(jail, path, checkedAtEnd(multipartField(body, multipartBoundary(c.req.header("content-type")), "file"), jail, path, conditions));
    // The version just written, for the editor's next save (read at once: the rename was the last step).
    const version = currentVersion(jail, path);
    return c.json({ path: jail.normalize(path), size }, 200, version ? { etag: version.etag } : {});
  });

  app.delete("/:id/file/*", (c) => {
    removePath(jailOf(c), pathAfter(c, "file"));
    return c.body(null, 204);
  });

  app.post("/:id/archive/*", async (c) => {
    const jail = jailOf(c);
    const sources = await readJson(c);
    if (!Array.isArray(sources) || !sources.length || !sources.every((s) => typeof s === "string")) {
      throw new KilnError("ErrFieldRequired", { field: "paths" }, "a list of paths to archive is required");
    }
    const denylist = denylistOf(c);
    const destination = pathAfter(c, "archive");
    denylist.check(jail, destination);
    // Denied files are left out of the archive, as Wings leaves them out.
    return c.json({ path: await createZip(jail, destination, sources.map(serverRooted), (path) => denylist.blocks(jail, path), limits) });
  });

  app.get("/:id/extract/*", async (c) => {
    const jail = jailOf(c);
    const archive = pathAfter(c, "extract");
    const asked = c.req.query("destination");
    const destination = asked !== undefined ? serverRooted(asked) : posix.dirname(jail.normalize(archive));
    const denylist = denylistOf(c);
    denylist.check(jail, archive);
    // An entry that would land on a denied name refuses the whole archive before anything moves.
    await extractArchive(jail, archive, destination === "." ? "" : destination, limits, (target) => denylist.check(jail, target));
    return c.body(null, 204);
  });

  app.get("/:id/extract-preview/*", async (c) => {
    const jail = jailOf(c);
    const archive = pathAfter(c, "extract-preview");
    const asked = c.req.query("destination");
    const destination = asked !== undefined ? serverRooted(asked) : posix.dirname(jail.normalize(archive));
    denylistOf(c).check(jail, archive);
    return c.json(await previewExtract(jail, archive, destination === "." ? "" : destination, limits));
  });

  return app;
}

/**
 * The jail-relative path after `/{kind}/` in the raw URL, each segment decoded on its own. A
 * segment that decodes to a separator or a NUL byte is refused: no name can hold one.
 */
function pathAfter(c: Context, kind: string): string {
  const pathname = new URL(c.req.url).pathname;
  const marker = `/${c.req.param("id")}/${kind}`;
  const rest = pathname.slice(pathname.indexOf(marker) + marker.length);
  const segments = rest.split("/").filter(Boolean).map((segment) => {
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      throw new KilnError("ErrNotFound", { path: segment }, `malformed path segment ${segment}`);
    }
    if (name.includes("/") || name.includes("\0")) throw new KilnError("ErrPathOutside", { path: name });
    return name;
  });
  return segments.join("/");
}

/**
 * A file's bytes, or the one range the request asks for (files/byte-range: a download cut short is
 * resumed), read in chunks from a descriptor the jail opened; the descriptor closes at the end or
 * when the caller goes away. The answer names the file's version (Last-Modified, and the ETag a
 * save sends back in If-Match: files/write-conditions). (Bun sends a streamed body chunked, without Content-Length: a file
 * written meanwhile may end elsewhere; the listing has the size.) For a HEAD, the headers with the
 * size the file has now as its length, nothing read, and the descriptor closed at once.
 */
function download(jail: Jail, path: string, request: { head: boolean; range?: string; ifRange?: string }): Response {
  const { fd, stats } = openRegularFile(jail, path);
  let etag: string;
  try {
    etag = descriptorVersion(fd).etag;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const name = posix.basename(jail.normalize(path));
  const headers: Record<string, string> = {
    // Bun knows types by file name; nothing is opened by this.
    "content-type": Bun.file(name).type,
    // Saved under the name as the file manager shows it: escapes for what would hide or lie (core/files/shown-name).
    "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(shownName(name))}`,
    "last-modified": stats.mtime.toUTCString(),
    // The version a save sends back in If-Match (files/file-version).
    etag,
    "accept-ranges": "bytes",
  };
  const range = requestedRange(stats.size, request.range, request.ifRange, [headers["last-modified"]!, etag]);
  if (range === "unsatisfiable") {
    closeSync(fd);
    const refusal = new KilnError("ErrFieldNotBetween", { field: "range", min: 0, max: stats.size - 1 }, "the range asked for starts past the file's end");
    return Response.json(refusal.toBody(), { status: 416, headers: { "content-range": `bytes */${stats.size}` } });
  }
  const [start, end] = range === "whole" ? [0, stats.size - 1] : [range.start, range.end];
  const status = range === "whole" ? 200 : 206;
  if (status === 206) headers["content-range"] = `bytes ${start}-${end}/${stats.size}`;
  if (request.head) {
    closeSync(fd);
    return new Response(null, { status, headers: { ...headers, "content-length": String(end - start + 1) } });
  }
  // The whole file is read to its end, wherever that is by then; a range stops at its last byte.
  return new Response(descriptorStream(fd, start, range === "whole" ? Infinity : end), { status, headers });
}
