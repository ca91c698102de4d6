// The Backups tab's plain forms: back up now, restore (whole or one path), lock,
// unlock and delete a backup, and the ignore patterns, for holders of `backups`; the policy on the
// admin card, and adopting a backup made before owners were recorded, for administrators. Each ends in a redirect with a toast, or the tab again with the
// node's error (./host's form). Downloads are links to the proxy.
import type { Context, Hono } from "hono";
import { RETENTION_KEYS, backupNote } from "../../../core/backups";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { NodeBackups, backupBy } from "../../services/backups";
import type { ServerPageHost } from "./host";
import { pathFromForm } from "../../../core/files/form-name";

const text = (body: Record<string, unknown>, name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");

/** The policy as the admin card's form posts it: counts by name, commands a line each. */
export function policyFromForm(body: Record<string, unknown>): Record<string, unknown> {
  const lines = (name: string) => text(body, name).split(/\r?\n/).filter((l) => l.trim());
  const retention = Object.fromEntries(RETENTION_KEYS.filter((key) => text(body, `keep.${key}`).trim()).map((key) => [key, text(body, `keep.${key}`).trim()]));
  return { target: text(body, "target") || "local", retention, maxBackups: text(body, "maxBackups").trim() || "0", before: lines("before"), after: lines("after") };
}

export function backupFormRoutes(app: Hono<KilnEnv>, deps: Deps, { form }: ServerPageHost): void {
  const backups = (id: string) => new NodeBackups(deps.db, id);
  const backupId = (c: Context<KilnEnv>) => c.req.param("backup")!;

  app.post("/server/:id/backups", requirePageLogin(), form("backups", "backups", async (c, id, body) => {
    // The note is checked here as the node checks it, so a refusal names the form's field.
    await backups(id).create(backupBy(c.get("user")!), backupNote(text(body, "note")));
    return "backups.created";
  }));

  app.post("/server/:id/backups/ignore", requirePageLogin(), form("backups", "backups", async (_c, id, body) => {
    await backups(id).setIgnore(text(body, "ignore"));
    return "backups.ignoreSaved";
  }));

  app.post("/server/:id/backups/policy", requirePageLogin(), form("admin", "admin", async (_c, id, body) => {
    await backups(id).setPolicy(policyFromForm(body));
    return "backups.policy.saved";
  }));

  app.post("/server/:id/backups/:backup/restore", requirePageLogin(), form("backups", "backups", async (c, id, body) => {
    // A path picked while browsing comes exactly, as "entry" (core/files/form-name: untrimmed, a line break spelled apart); one typed comes as "path".
    const picked = typeof body.entry === "string" ? pathFromForm(body.entry) : null;
    await backups(id).restore(backupId(c), picked ?? text(body, "path").trim());
    return "backups.restoreStarted";
  }));

  app.post("/server/:id/backups/:backup/lock", requirePageLogin(), form("backups", "backups", async (c, id) => {
    await backups(id).lock(backupId(c), true);
    return "backups.lockedDone";
  }));

  app.post("/server/:id/backups/:backup/unlock", requirePageLogin(), form("backups", "backups", async (c, id) => {
    await backups(id).lock(backupId(c), false);
    return "backups.unlockedDone";
  }));

  app.post("/server/:id/backups/:backup/adopt", requirePageLogin(), form("admin", "backups", async (c, id) => {
    await backups(id).adopt(backupId(c));
    return "backups.adopted";
  }));

  app.post("/server/:id/backups/:backup/delete", requirePageLogin(), form("backups", "backups", async (c, id) => {
    await backups(id).remove(backupId(c));
    return "backups.deleted";
  }));
}
