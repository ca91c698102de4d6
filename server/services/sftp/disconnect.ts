// Ends SFTP sessions on the nodes when access changes: a flag or a server user removed, an
// account's password, email, admin scope or existence changed, a server deleted. Best effort and
// in the background: a node that is down is logged (its sessions were cut with it), and the
// user's request never waits for nodes.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { callNode } from "../../daemon-client";

export interface SessionTarget {
  userId?: number;
  serverId?: string;
}

/** The node route (daemon/sftp/routes.ts). */
export const DISCONNECT_PATH = "/daemon/sftp/disconnect";

const pending = new Set<Promise<void>>();

/**
 * Asks the nodes concerned to end matching sessions: the server's node when a server is named
 * (read now, before the row may go), else every node, since an admin may be on any of them.
 * Returns at once; `sftpDisconnectsSettled` waits for the calls.
 */
export function endSftpSessions(db: Db, target: SessionTarget, log: (line: string) => void = console.warn): void {
  if (target.userId === undefined && target.serverId === undefined) return;
  const nodes = target.serverId === undefined ? db.select().from(schema.nodes).all() : serverNodes(db, target.serverId);
  const body = JSON.stringify(target);
  for (const node of nodes) {
    const call = callNode(node, DISCONNECT_PATH, { method: "POST", headers: { "content-type": "application/json" }, body, timeoutMs: 5_000 })
      .then((response) => {
        if (!response.ok) log(`kiln: node ${node.name} did not end SFTP sessions (${response.status})`);
      })
      .catch((error) => log(`kiln: could not reach node ${node.name} to end SFTP sessions: ${(error as Error).message}`))
      .finally(() => pending.delete(call));
    pending.add(call);
  }
}

/** Resolves when every disconnect call made so far has answered or failed (for tests and shutdown). */
export async function sftpDisconnectsSettled(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}

function serverNodes(db: Db, serverId: string) {
  return db.select().from(schema.nodes).innerJoin(schema.servers, eq(schema.servers.nodeId, schema.nodes.id)).where(eq(schema.servers.id, serverId)).all().map((row) => row.nodes);
}
