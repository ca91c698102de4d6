// Ends SFTP sessions on the nodes when access changes: a flag or a server user removed, an
// account's password, email, admin scope or existence changed, a server deleted. Best effort and
// in the background: the user's request never waits for nodes, and a node that does not answer
// is logged (a node that is down has lost its sessions anyway).
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { callOperation } from "../../daemon-client";

export interface SessionTarget {
  userId?: number;
  serverId?: string;
}

/**
 * Asks the nodes concerned to end matching sessions: the server's node when a server is named
 * (read now, before the row may go), else every node, since an admin may be on any of them.
 * Returns at once: tests wait for the effect itself (the client's connection closing).
 */
export async function endSftpSessions(db: Db, target: SessionTarget, log: (line: string) => void = console.warn): Promise<void> {
  if (target.userId === undefined && target.serverId === undefined) return;
  const nodes = target.serverId === undefined ? await db.select().from(schema.nodes).all() : await serverNodes(db, target.serverId);
  const body = JSON.stringify(target);
  for (const node of nodes) {
    void callOperation(node, "sftpDisconnect", {}, { headers: { "content-type": "application/json" }, body, timeoutMs: 5_000 })
      .then((response) => {
        if (!response.ok) log(`kiln: node ${node.name} did not end SFTP sessions (${response.status})`);
      })
      .catch((error) => log(`kiln: could not end SFTP sessions on node ${node.name} (${(error as Error).message})`));
  }
}

async function serverNodes(db: Db, serverId: string) {
  return (await db.select().from(schema.nodes).innerJoin(schema.servers, eq(schema.servers.nodeId, schema.nodes.id)).where(eq(schema.servers.id, serverId)).all()).map((row) => row.nodes);
}
