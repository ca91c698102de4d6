// The daemon's backup API, under /daemon/server/{id}: the list with what is running,
// create, lock, delete, restore (whole or one path) and download; the server's ignore patterns
// and policy. The panel checks `backups` (the policy: administrators) and says who asks in
// x-kiln-by, and marks its owner's and administrators' reads (OWNERS_CALL_HEADER); every snapshot
// named here is looked up among this server's own.
import { Hono } from "hono";
import { KilnError } from "../../core/errors";
import { DOWNLOAD_FORMATS, backupNote, type DownloadFormat } from "../../core/backups";
import type { BackupService } from "../backups";
import { readJson } from "../http/body";
import { OWNERS_CALL_HEADER, ownersCall } from "../../core/contract";

export function backupRoutes(backups: BackupService) {
  const app = new Hono();

  app.get("/:id/backups", async (c) => c.json(await backups.list(c.req.param("id"))));

  app.post("/:id/backups", async (c) => {
    const by = c.req.header("x-kiln-by") ?? "";
    // Optional body {note}: what the backup is for, shown beside it. No body is no note.
    const raw = await c.req.text();
    let body: { note?: unknown } | null = null;
    if (raw.trim()) {
      try {
        body = JSON.parse(raw) as { note?: unknown } | null;
      } catch {
        throw new KilnError("ErrInvalidJson");
      }
    }
    const { finished } = await backups.requested(c.req.param("id"), by, backupNote(body?.note));
    if (c.req.query("wait") === "true") return c.json(await finished, 201);
    // Without wait the progress shows in the list and on the console.
    finished.catch(() => undefined);
    return c.body(null, 202);
  });

  app.delete("/:id/backups/:backup", async (c) => {
    await backups.remove(c.req.param("id"), c.req.param("backup"));
    return c.body(null, 204);
  });

  app.post("/:id/backups/:backup/lock", async (c) => {
    const body = (await readJson(c)) as { locked?: unknown } | null;
    if (typeof body?.locked !== "boolean") throw new KilnError("ErrFieldRequired", { field: "locked" });
    await backups.lock(c.req.param("id"), c.req.param("backup"), body.locked);
    return c.body(null, 204);
  });

  // An administrator's (the panel's proxy): a backup made before owners were recorded becomes readable.
  app.post("/:id/backups/:backup/adopt", async (c) => c.json(await backups.adopt(c.req.param("id"), c.req.param("backup"))));

  app.post("/:id/backups/:backup/restore", async (c) => {
    const body = (await readJson(c)) as { path?: unknown } | null;
    const { finished } = await backups.restore(c.req.param("id"), c.req.param("backup"), body?.path);
    if (c.req.query("wait") === "true") {
      await finished;
      return c.body(null, 204);
    }
    finished.catch(() => undefined);
    return c.body(null, 202);
  });

  app.get("/:id/backups/:backup/files", async (c) => c.json(await backups.folder(c.req.param("id"), c.req.param("backup"), c.req.query("path") ?? "", ownersCall(c.req.header(OWNERS_CALL_HEADER)))));

  app.get("/:id/backups/:backup/download", async (c) => {
    const format = c.req.query("format") ?? "tar.gz";
    if (!(DOWNLOAD_FORMATS as readonly string[]).includes(format)) throw new KilnError("ErrFieldRequired", { field: "format" }, `format must be one of ${DOWNLOAD_FORMATS.join(", ")}`);
    return backups.download(c.req.param("id"), c.req.param("backup"), format as DownloadFormat, ownersCall(c.req.header(OWNERS_CALL_HEADER)));
  });

  app.get("/:id/backup-settings", (c) => c.json(backups.view(c.req.param("id"))));

  app.post("/:id/backup-settings/ignore", async (c) => {
    const body = (await readJson(c)) as { ignore?: unknown } | null;
    return c.json({ ignore: backups.setIgnore(c.req.param("id"), body?.ignore) });
  });

  app.post("/:id/backup-settings/policy", async (c) => c.json({ policy: backups.setPolicy(c.req.param("id"), await readJson(c)) }));

  return app;
}
