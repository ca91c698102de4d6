// What anyone may start without signing in, and which is stored until it lapses: an SSO login's
// flow (ten minutes), a passkey sign-in's challenge (five). Without a bound, a loop from one
// address filled the database with rows nobody would use. Each address (an IPv6 address by its
// /64: one subscriber picks any address of it) may start STARTS_BURST at
// once and STARTS_PER_MINUTE a minute after that (far more than a person pressing a button);
// past it ErrTooManyRequests, and nothing is stored. The share is counted in the database
// (`countAnonymousStart`), so a loop spread by a balancer over several panel processes meets one
// share, not one per panel.
// Beside this, each store has a cap on what it holds at all (a flood from many addresses).
import { KilnError } from "../../../core/errors";
import type { Db } from "../../../db";
import { clusterNow } from "../cluster/clock";
import { putValue, readValue } from "../cluster/one-time-values";
import { subscriberNetwork } from "../../../core/net/address-rules";

export const STARTS_BURST = 60;
export const STARTS_PER_MINUTE = 30;
const tooMany = (kind: string) => new KilnError("ErrTooManyRequests", { retryAfter: Math.ceil(60 / STARTS_PER_MINUTE) }, `too many ${kind} sign-ins started from this address`);

/**
 * Takes one start for `address` at `kind` ("sso", "passkey"), or throws ErrTooManyRequests. The
 * bucket is kept in the database (`one_time_values`, kind `starts`) and timed by the database's
 * clock: every panel process takes from one bucket per address. The row lives until the bucket
 * would be full again, when a missing row means the same.
 */
export async function countAnonymousStart(db: Db, kind: string, address: string): Promise<void> {
  await db.transaction(async (tx) => {
    const now = await clusterNow(db);
    const key = `${kind}|${subscriberNetwork(address)}`;
    const stored = await readValue(tx, "starts", key, now);
    const was = stored === undefined ? { level: STARTS_BURST, at: now } : (JSON.parse(stored) as { level: number; at: number });
    const level = Math.min(STARTS_BURST, was.level + (Math.max(0, now - was.at) / 60_000) * STARTS_PER_MINUTE);
    // A refusal throws: the transaction rolls back and nothing is taken.
    if (level < 1) throw tooMany(kind);
    const left = level - 1;
    await putValue(tx, "starts", key, JSON.stringify({ level: left, at: now }), now + Math.ceil(((STARTS_BURST - left) / STARTS_PER_MINUTE) * 60_000));
  });
}

/**
 * Stores a start (`store`) only while its store holds fewer than `max` live entries (`held`),
 * whoever started them; past it ErrTooManyRequests and nothing is stored. The count and the
 * insert are one transaction (serializable on PostgreSQL, the one writer on SQLite): counted
 * apart, starts asked at the same moment (from many addresses, through several panels) all saw
 * the same room and all were stored, past the cap.
 */
export async function storeWithinCap(db: Db, kind: string, max: number, held: (tx: Db) => Promise<number>, store: (tx: Db) => Promise<void>): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await held(tx)) >= max) throw new KilnError("ErrTooManyRequests", { retryAfter: 60 }, `${max} ${kind} sign-ins are waiting already`);
    await store(tx);
  });
}
