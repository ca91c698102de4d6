// How many invitations a caller who may not create accounts sends (a server user sharing their
// server with someone new). Each is an email from the panel to an address the caller chose, and
// an account row: without a bound, one such user could send the panel's mail to any number of
// addresses (its sender's reputation is the administrator's) and grow the accounts table without
// end. Counted in the database, so every panel process counts the same invitations; every
// invitation asked for counts, sent or not. A caller who may create accounts (users.edit) is not
// counted: they may make the accounts themselves.
import { KilnError } from "../../../core/errors";
import type { Db } from "../../../db";
import { putValue, readValue } from "../cluster/one-time-values";

export const INVITATIONS_PER_DAY = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
const KIND = "invitations";

/** Counts one invitation by `userId`, or refuses it (ErrTooManyRequests, nothing counted) when INVITATIONS_PER_DAY were asked for in the last 24 hours. */
export async function countInvitation(db: Db, userId: number, now = Date.now()): Promise<void> {
  await db.transaction(async (tx) => {
    const stored = await readValue(tx, KIND, String(userId), now);
    const recent = (stored === undefined ? [] : (JSON.parse(stored) as number[])).filter((at) => at > now - DAY_MS);
    if (recent.length >= INVITATIONS_PER_DAY) throw new KilnError("ErrTooManyRequests", { limit: INVITATIONS_PER_DAY });
    recent.push(now);
    await putValue(tx, KIND, String(userId), JSON.stringify(recent), now + DAY_MS);
  });
}
