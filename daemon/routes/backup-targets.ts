// The node's backup targets (issue 20), under /daemon/backup-targets: listed without their
// secrets, set and removed. Not proxied: the panel's node pages call it for administrators.
import { Hono } from "hono";
import type { BackupTargets } from "../backups";
import { readJson } from "../http/body";

export function backupTargetRoutes(targets: BackupTargets) {
  const app = new Hono();
  app.get("/", (c) => c.json({ targets: targets.list() }));
  app.put("/:kind", async (c) => c.json(targets.set(c.req.param("kind"), await readJson(c))));
  app.delete("/:kind", async (c) => {
    await targets.remove(c.req.param("kind"));
    return c.body(null, 204);
  });
  return app;
}
