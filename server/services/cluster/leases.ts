// Jobs that must run in one panel process at a time (pruning, heartbeats to nodes, webhook
// deliveries, claim refresh): each is held under a lease row that its holder renews every
// RENEW_MS; a holder that stops renewing (killed, cut off from the database) loses it after
// LEASE_MS and another process takes the job over at its next try, well within 30 s.
import { and, eq, lt, or, sql } from "drizzle-orm";
import { schema, type Db } from "../../../db";
import { clusterNow } from "./clock";

export const LEASE_MS = 15_000;
export const RENEW_MS = 5_000;

/** Takes or renews the lease `name` for `holder`; answers whether `holder` has it now. */
export async function takeLease(db: Db, name: string, holder: string, at?: number): Promise<boolean> {
  const now = at ?? (await clusterNow(db));
  const expiresAt = now + LEASE_MS;
  const taken = await db
    .insert(schema.leases)
    .values({ name, holder, expiresAt })
    .onConflictDoUpdate({
      target: schema.leases.name,
      set: { holder, expiresAt },
      // Only a free lease (expired) or the holder's own is taken.
      setWhere: or(eq(schema.leases.holder, holder), lt(schema.leases.expiresAt, now)),
    })
    .returning({ holder: schema.leases.holder })
    .get();
  return taken?.holder === holder;
}

export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.delete(schema.leases).where(and(eq(schema.leases.name, name), eq(schema.leases.holder, holder))).run();
}

/** Who holds `name` now, if anyone. */
export async function leaseHolder(db: Db, name: string, at?: number): Promise<string | undefined> {
  const now = at ?? (await clusterNow(db));
  const row = await db.select().from(schema.leases).where(and(eq(schema.leases.name, name), sql`${schema.leases.expiresAt} >= ${now}`)).get();
  return row?.holder;
}

/**
 * Runs `start` while this process holds the lease `name`, and the stop it answers when the lease
 * is lost or the job is stopped. Answers the stop of the whole.
 */
export function whileHolding(db: Db, name: string, holder: string, start: () => (() => void) | Promise<() => void>): () => Promise<void> {
  let stopJob: (() => void) | undefined;
  let stopped = false;
  let stepping = false;
  const step = async () => {
    // A slow database: the step still under way answers for this beat too.
    if (stepping) return;
    stepping = true;
    try {
      await oneStep();
    } finally {
      stepping = false;
    }
  };
  const oneStep = async () => {
    let held = false;
    try {
      held = await takeLease(db, name, holder);
    } catch {
      // The database does not answer: run nothing that may be another's by now.
      held = false;
    }
    if (stopped) return;
    if (held && !stopJob) stopJob = await start();
    if (!held && stopJob) {
      stopJob();
      stopJob = undefined;
    }
  };
  const timer = setInterval(() => void step(), RENEW_MS);
  timer.unref();
  const first = step();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await first.catch(() => {});
    stopJob?.();
    stopJob = undefined;
    await releaseLease(db, name, holder).catch(() => {});
  };
}

/** Runs `work` once this process holds `name` (waiting for another holder to finish), then lets it go. */
export async function whileLeased<T>(db: Db, name: string, holder: string, work: () => Promise<T>): Promise<T> {
  while (!(await takeLease(db, name, holder))) await Bun.sleep(200);
  try {
    return await work();
  } finally {
    await releaseLease(db, name, holder);
  }
}
