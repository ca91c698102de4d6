// Giving someone access to a server by email: an existing account gets the flags at once; an
// unknown email is invited first. The flags follow the server-user rule either
// way, and the invitation follows its own (see invitations.ts: the link reaches the caller only
// when they may create accounts).
import type { Context } from "hono";
import type { KilnEnv } from "./context";
import type { Deps } from "./deps";
import { invite, type InviteResult } from "./invitations";
import { findUserByEmail, grantableFlags, putServerUser, type ServerAccess } from "./services/servers";

export async function shareServer(c: Context<KilnEnv>, deps: Deps, access: ServerAccess, serverId: string, email: string, requested: Record<string, unknown>): Promise<InviteResult | null> {
  const existing = await findUserByEmail(deps.db, email);
  if (existing) {
    await putServerUser(deps.db, access, serverId, existing.id, requested);
    return null;
  }
  // Checked before anyone is invited, so a refused grant leaves no invitation behind.
  grantableFlags(access, [], requested);
  const invited = await invite(c, deps, email);
  await putServerUser(deps.db, access, serverId, invited.id, requested);
  return invited;
}
