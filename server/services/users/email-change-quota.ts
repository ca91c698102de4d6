// How often an account changes its own email. Each change is checked against every other account's
// address, and the answer says whether the address was taken: without a bound, any account holder
// (a self-registered stranger's too) tested addresses one after another for accounts here, which
// registration takes care not to tell (registration-quota). Every attempt that reaches the check
// counts, taken or not. A manager changing someone's email is not counted: they list the accounts anyway.
import type { Db } from "../../../db";
import { countInDay } from "../cluster/daily-count";

/** Email changes by one account in any 24 hours: a few mistakes corrected, never a search. */
export const EMAIL_CHANGES_PER_DAY = 10;

/** Counts one change of `userId`'s own email, or refuses it (ErrTooManyRequests, nothing counted) past EMAIL_CHANGES_PER_DAY. */
export async function countEmailChange(db: Db, userId: number, now = Date.now()): Promise<void> {
  await countInDay(db, "email-changes", String(userId), EMAIL_CHANGES_PER_DAY, now);
}
