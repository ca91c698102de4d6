// The node's backup targets, under /daemon/backup-targets: listed without their
// secrets, set and removed; a repository's password, for an administrator to keep elsewhere. Not proxied: the panel's node pages call it for administrators.
import { Hono } from "hono";
import type { BackupService, BackupTargets } from "../backups";
import { readJson } from "../http/body";
import { KilnError } from "../../core/errors";
import { SERVER_ID } from "../servers/store";

export function backupTargetRoutes(targets: BackupTargets, backups: BackupService) {
  const app = new Hono();
  app.get("/", (c) => c.json({ targets: targets.list() }));
  app.put("/:kind", async (c) => c.json(await targets.set(c.req.param("kind"), await readJson(c))));
  app.get("/:kind/password", (c) => c.text(targets.passwordOf(c.req.param("kind"))));
  // Rebuilding a lost node: its servers made again from the definitions and backups the target keeps.
  // The panel names the servers it knows on this node; nothing else is made.
  app.post("/:kind/recover", async (c) => c.json(await backups.recover(c.req.param("kind"), knownServers(await readJson(c)))));
  app.delete("/:kind", async (c) => {
    await targets.remove(c.req.param("kind"));
    return c.body(null, 204);
  });
  return app;
}

/** The body's `servers`: the ids the panel knows on this node (ErrFieldRequired when not a list of ids). */
function knownServers(body: unknown): Set<string> {
  const servers = (body as { servers?: unknown } | null)?.servers;
  if (!Array.isArray(servers) || !servers.every((id) => typeof id === "string" && SERVER_ID.test(id))) throw new KilnError("ErrFieldRequired", { field: "servers" });
  return new Set(servers as string[]);
}
