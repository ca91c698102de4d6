// The one rule an open socket and an open download are held to while they last: the holder's
// session (followed through a renewal) must still be live, and it must still meet the
// operation's requirement on the server (authorize, the same check that let it in). Read from the
// database each time, so every way rights change (a logout, a removal from the server, lowered
// flags, an account deleted or disabled, "Secure this account") is caught without each having to
// tell the proxy.
import { CLOSE_ACCESS_REVOKED, CLOSE_SESSION_ENDED } from "../../core/live";
import { KilnError } from "../../core/errors";
import type { ServerRequirement } from "../../core/scopes/server-access";
import type { Db } from "../../db";
import { findSessionUserByHash, rotatedTo } from "../services/sessions";
import { authorize, type ServerAccess } from "../services/servers";

/** Often enough that what no request tells of (an expiry) takes effect well within a second. */
export const RECHECK_MS = 400;

/** The change-feed topic under which a panel process tells the others to recheck (several panels on PostgreSQL). */
export const RECHECK_TOPIC = "sockets";

/** Still allowed (with the access now and the session's hash, a renewal followed), or ended with a socket close code. */
export type Verdict = { access: ServerAccess; sessionHash: string } | { code: number; reason: string };

export async function recheck(db: Db, sessionHash: string, serverId: string, needs: ServerRequirement): Promise<Verdict> {
  let user = await findSessionUserByHash(db, sessionHash);
  if (!user) {
    // Renewed (through this or another panel process): the holder follows its login to the new token.
    const renewed = await rotatedTo(db, sessionHash);
    if (renewed) [sessionHash, user] = [renewed, await findSessionUserByHash(db, renewed)];
  }
  if (!user) return { code: CLOSE_SESSION_ENDED, reason: "session ended" };
  try {
    return { access: await authorize(db, user, serverId, needs), sessionHash };
  } catch (error) {
    if (error instanceof KilnError) return { code: CLOSE_ACCESS_REVOKED, reason: "access revoked" };
    throw error;
  }
}
