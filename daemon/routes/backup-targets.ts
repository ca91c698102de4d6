// The node's backup targets (issue 20), under /daemon/backup-targets: listed without their
// secrets, set and removed; a repository's password, for an administrator to keep elsewhere. Not proxied: the panel's node pages call it for administrators.
import { Hono } from "hono";
import type { BackupService, BackupTargets } from "../backups";
import { readJson } from "../http/body";

export function backupTargetRoutes(targets: BackupTargets, backups: BackupService) {
  const app = new Hono();
  app.get("/", (c) => c.json({ targets: targets.list() }));
  app.put("/:kind", async (c) => c.json(targets.set(c.req.param("kind"), await readJson(c))));
  app.get("/:kind/password", (c) => c.text(targets.passwordOf(c.req.param("kind"))));
  // Rebuilding a lost node: its servers made again from the definitions and backups the target keeps.
  app.post("/:kind/recover", async (c) => c.json(await backups.recover(c.req.param("kind"))));
  app.delete("/:kind", async (c) => {
    await targets.remove(c.req.param("kind"));
    return c.body(null, 204);
  });
  return app;
}
