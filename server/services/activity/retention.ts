// Keeps the activity log within its settings (retention days, at most so many rows) and drops
// webhook deliveries that finished long ago. Deletes run in small batches with a pause between, so
// the database is never held long by pruning: requests and recording go on between batches.
//
// Past the row cap, what anyone can write without signing in (the catalogue's `anonymous` events:
// refused logins) goes first, oldest first — those naming no account, then those naming one — and
// only then the oldest of the rest. The cap is shared by the whole log, so otherwise a flood of
// refused logins from anywhere would push out the administrators' and users' own actions.
import { and, count, inArray, isNotNull, isNull, lt, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { EVENT_NAMES, EVENTS, type EventRule } from "../../../core/activity";
import { ACTIVITY_DEFAULTS, getSetting, SETTING_KEYS } from "../settings";

export const PRUNE_EVERY_MS = 3_600_000;
const BATCH = 2000;
/** Finished deliveries are kept this long for their endpoint's log. */
const DELIVERIES_KEPT_MS = 30 * 86_400_000;
const ANONYMOUS = EVENT_NAMES.filter((name) => (EVENTS[name] as EventRule).anonymous);
/** The order rows past the cap go in, each oldest first: anonymous rows about no account, anonymous rows about one, then any. */
const EVICTED_FIRST: (SQL | undefined)[] = [and(inArray(schema.activity.event, ANONYMOUS), isNull(schema.activity.subject)), and(inArray(schema.activity.event, ANONYMOUS), isNotNull(schema.activity.subject)), undefined];

/** Prunes now and every `everyMs`; answers a function that stops it. */
export async function startPruning(db: Db, everyMs = PRUNE_EVERY_MS): Promise<() => void> {
  let stopped = false;
  const run = () => pruneActivity(db, () => stopped).then(() => {}, (error: Error) => console.error(`kiln: pruning the activity log failed: ${error.message}`));
  const timer = setInterval(run, everyMs);
  await run();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/** One pass: rows older than the retention, then those beyond the maximum (in EVICTED_FIRST's order), then old deliveries. Answers how many rows went. */
export async function pruneActivity(db: Db, stopped: () => boolean = () => false, now = Date.now()): Promise<number> {
  const days = Number(await getSetting(db, SETTING_KEYS.activityRetentionDays) ?? ACTIVITY_DEFAULTS.retentionDays);
  const maxRows = Number(await getSetting(db, SETTING_KEYS.activityMaxRows) ?? ACTIVITY_DEFAULTS.maxRows);
  let removed = 0;
  const cutoff = now - days * 86_400_000;
  removed += await inBatches(stopped, async () => (await db.delete(schema.activity).where(inArray(schema.activity.id, db.select({ id: schema.activity.id }).from(schema.activity).where(lt(schema.activity.at, cutoff)).limit(BATCH))).returning({ id: sql`1` }).all()).length);
  // Beyond the maximum: as many rows as are over it, in EVICTED_FIRST's order.
  let over = ((await db.select({ n: count() }).from(schema.activity).get())?.n ?? 0) - maxRows;
  for (const where of EVICTED_FIRST) {
    while (over > 0 && !stopped()) {
      const batch = Math.min(BATCH, over);
      const oldest = db.select({ id: schema.activity.id }).from(schema.activity).where(where).orderBy(schema.activity.id).limit(batch);
      const n = (await db.delete(schema.activity).where(inArray(schema.activity.id, oldest)).returning({ id: sql`1` }).all()).length;
      removed += n;
      over -= n;
      // Fewer than asked: no more rows of this kind.
      if (n < batch) break;
      // Lets requests waiting on the database in.
      await Bun.sleep(5);
    }
  }
  const old = now - DELIVERIES_KEPT_MS;
  await inBatches(stopped, async () => (await db.delete(schema.webhookDeliveries).where(inArray(schema.webhookDeliveries.id, db.select({ id: schema.webhookDeliveries.id }).from(schema.webhookDeliveries).where(and(ne(schema.webhookDeliveries.state, "pending"), lt(schema.webhookDeliveries.createdAt, old))).limit(BATCH))).returning({ id: sql`1` }).all()).length);
  return removed;
}

async function inBatches(stopped: () => boolean, deleteBatch: () => Promise<number>): Promise<number> {
  let total = 0;
  while (!stopped()) {
    const changes = await deleteBatch();
    total += changes;
    if (changes < BATCH) break;
    // Lets requests waiting on the database in.
    await Bun.sleep(5);
  }
  return total;
}
