// Whose view a task's automatic run, and its webhook steps, are checked with: the OAuth2 client
// that saved it as that client is now, else the account that saved it; both as the panel recorded
// them (./savers), not as the node names them. A client's view is the one its token would have
// (services/sessions sessionUserOf): bound to a server, it reaches that server only and carries
// none of its owner's panel-wide scopes; deleted, nothing (null).
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { sessionUserOf, type SessionUser } from "../sessions";

/** The account that saved the task, as the panel recorded it (getUser's answer). */
export interface TaskOwner {
  id: number;
  username: string;
  email: string;
}

/** The view a run of the task is checked with; null when the client that saved it is gone. */
export async function runView(db: Db, owner: TaskOwner, clientId: string | undefined): Promise<SessionUser | null> {
  if (clientId === undefined) return await sessionUserOf(db, owner, null);
  const client = await db.select({ serverId: schema.oauth2Clients.serverId }).from(schema.oauth2Clients).where(and(eq(schema.oauth2Clients.clientId, clientId), eq(schema.oauth2Clients.userId, owner.id))).get();
  return client ? await sessionUserOf(db, owner, { clientId, serverId: client.serverId }) : null;
}
