// The backup targets card's plain forms on a node's page (administrators: NodeBackupTargets): set an SFTP or
// S3 target (a blank secret keeps the one set), or remove one; recover the servers a target
// keeps (a rebuilt node); and download a target's repository password, to keep elsewhere. Each
// form ends in a redirect to the card with a toast, or the node page again with the node's error
// in the card.
import type { Context, Hono } from "hono";
import { KilnError } from "../../core/errors";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requirePageLogin } from "../middleware/require";
import { readBody } from "../request";
import { isHttps, setFlash } from "../cookies";
import { getNodeRow, type NodeRow } from "../services/nodes";
import { NodeBackupTargets } from "../services/backups";
import { errorMessageKey } from "../../core/errors/message-key";

/** Shows the node page again with an error in the targets card. */
export type TargetsPage = (c: Context<KilnEnv>, row: NodeRow, error: string, status: number) => Promise<Response>;

const FIELDS = { sftp: ["host", "port", "user", "path", "privateKey", "repositoryPassword"], s3: ["endpoint", "bucket", "path", "region", "accessKeyId", "secretAccessKey", "caCert", "repositoryPassword"] } as const;
const KINDS = ["local", "sftp", "s3"] as const;
type Kind = (typeof KINDS)[number];

export function backupTargetFormRoutes(app: Hono<KilnEnv>, deps: Deps, page: TargetsPage): void {
  /** The node and the target kind the address names (ErrNotFound for anything else). */
  const named = async (c: Context<KilnEnv>) => {
    const id = Number(c.req.param("id"));
    if (!Number.isInteger(id) || id <= 0) throw new KilnError("ErrNotFound", { id: c.req.param("id") ?? "" });
    const row = await getNodeRow(deps.db, id);
    const kind = c.req.param("kind") as Kind;
    if (!KINDS.includes(kind)) throw new KilnError("ErrNotFound", { target: kind ?? "" });
    return { row, kind };
  };
  const attempt = async (c: Context<KilnEnv>, work: (targets: NodeBackupTargets, kind: Kind, body: Record<string, unknown>) => Promise<string>) => {
    const { row, kind } = await named(c);
    try {
      const flash = await work(new NodeBackupTargets(deps.db, row.id, c.get("user")!), kind, await readBody(c));
      setFlash(c, flash, isHttps(c, deps.config.trustProxy));
      return c.redirect(`/node/${row.id}#backup-targets`, 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return page(c, row, c.get("t")(errorMessageKey(error.code, error.metadata), error.metadata), error.status);
    }
  };

  app.post("/node/:id/backup-targets/:kind", requirePageLogin(), (c) =>
    attempt(c, async (targets, kind, body) => {
      if (kind === "local") throw new KilnError("ErrNotFound", { target: kind });
      // Only the kind's own fields go on, as text; the node checks each.
      const target = Object.fromEntries(FIELDS[kind].map((name) => [name, typeof body[name] === "string" ? body[name] : ""]));
      await targets.set(kind, target);
      return "backupTargets.saved";
    }),
  );

  app.post("/node/:id/backup-targets/:kind/delete", requirePageLogin(), (c) =>
    attempt(c, async (targets, kind) => {
      await targets.remove(kind);
      return "backupTargets.removed";
    }),
  );

  app.post("/node/:id/backup-targets/:kind/recover", requirePageLogin(), (c) =>
    attempt(c, async (targets, kind) => {
      await targets.recover(kind);
      return "backupTargets.recoveredDone";
    }),
  );

  // The repository's password as a file to keep off the node: without it, the backups cannot be read.
  app.get("/node/:id/backup-targets/:kind/password", requirePageLogin(), async (c) => {
    const { row, kind } = await named(c);
    const password = await new NodeBackupTargets(deps.db, row.id, c.get("user")!).password(kind);
    const name = `kiln-node-${row.id}-${kind}-repository-password.txt`;
    return c.body(`${password}\n`, 200, { "content-type": "text/plain; charset=utf-8", "content-disposition": `attachment; filename="${name}"`, "cache-control": "no-store" });
  });
}
