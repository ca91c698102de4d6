// A bound on how often one key (an account, an address) does something in any 24 hours, kept in
// the database so every panel process counts the same attempts and a restart forgives none.
import { KilnError } from "../../../core/errors";
import type { Db } from "../../../db";
import { putValue, readValue } from "./one-time-values";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Counts one attempt of `key`, or refuses it (ErrTooManyRequests, nothing counted) when `limit` were counted in the last 24 hours. */
export async function countInDay(db: Db, kind: string, key: string, limit: number, now = Date.now()): Promise<void> {
  await db.transaction(async (tx) => {
    const stored = await readValue(tx, kind, key, now);
    const recent = (stored === undefined ? [] : (JSON.parse(stored) as number[])).filter((at) => at > now - DAY_MS);
    if (recent.length >= limit) throw new KilnError("ErrTooManyRequests", { limit });
    recent.push(now);
    await putValue(tx, kind, key, JSON.stringify(recent), now + DAY_MS);
  });
}
