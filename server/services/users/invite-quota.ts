// How many invitations a caller who may not create accounts sends (a server user sharing their
// server with someone new). Each is an email from the panel to an address the caller chose, and
// an account row: without a bound, one such user could send the panel's mail to any number of
// addresses (its sender's reputation is the administrator's) and grow the accounts table without
// end. Counted in the database, so every panel process counts the same invitations; every
// invitation asked for counts, sent or not. A caller who may create accounts (users.edit) is not
// counted: they may make the accounts themselves.
import type { Db } from "../../../db";
import { countInDay } from "../cluster/daily-count";

export const INVITATIONS_PER_DAY = 20;

/** Counts one invitation by `userId`, or refuses it (ErrTooManyRequests, nothing counted) when INVITATIONS_PER_DAY were asked for in the last 24 hours. */
export async function countInvitation(db: Db, userId: number, now = Date.now()): Promise<void> {
  await countInDay(db, "invitations", String(userId), INVITATIONS_PER_DAY, now);
}
