// Calls a node makes to the panel (SFTP logins, scheduled-task checks) carry a token signed with
// the node's secret. These find which node is calling, and refuse one asking about a server it
// does not hold.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { verifyNodeToken } from "../../../core/node-token";

/** The ids of the nodes whose secret signed `token`; ErrInvalidCredentials when none did. */
export function callingNodes(db: Db, token: string | null): number[] {
  const ids = db
    .select({ id: schema.nodes.id, secret: schema.nodes.secret })
    .from(schema.nodes)
    .all()
    .filter((node) => verifyNodeToken(node.secret, token))
    .map((node) => node.id);
  // Nothing about accounts or servers is said to a caller that is not a node.
  if (ids.length === 0) throw new KilnError("ErrInvalidCredentials", { reason: "node-token" }, "a valid node token is required");
  return ids;
}

/** True when one of the calling nodes holds the server. */
export function nodeHoldsServer(db: Db, nodeIds: number[], serverId: string): boolean {
  const server = db.select({ nodeId: schema.servers.nodeId }).from(schema.servers).where(eq(schema.servers.id, serverId)).get();
  return server !== undefined && nodeIds.includes(server.nodeId);
}
