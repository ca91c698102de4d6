// Plans between "here is what will happen" and "do it": kept for their maker on their server only,
// for PLAN_TTL_MS, used once. A plan id from someone else, another server, or too late is
// ErrModPlanUnknown: what is applied is exactly what its maker was shown. Kept in the database
// (`one_time_values`, a kind per store), so a plan made through one panel process is applied
// through another behind the same balancer. What is kept is bounded by count and by size (a
// modpack's plan lists every file it lays over the folder: megabytes for a large pack), per user
// and in all.
import { and, eq, lte, sql } from "drizzle-orm";
import { KilnError } from "../../../core/errors";
import type { Plan } from "../../../core/mods/types";
import { schema, type Db } from "../../../db";
import { clusterNow } from "../cluster/clock";
import { takeValue } from "../cluster/one-time-values";

export const PLAN_TTL_MS = 15 * 60 * 1000;
/** Plans kept at most (the oldest go first): users making plans in a loop hold bounded room. */
const MAX_PLANS = 1000;
/**
 * Plans one user keeps at most (their own oldest go first): one user planning in a loop pushes out
 * only their own plans, never another's they were about to apply.
 */
export const MAX_PLANS_PER_USER = 20;
/** The size (characters of its JSON) of the plans one user keeps at most: their own oldest go first. A few of the largest packs' plans. */
export const MAX_PLAN_CHARS_PER_USER = 32 * 1024 * 1024;
/** The same for everyone's plans together (the oldest go first). */
const MAX_PLAN_CHARS = 256 * 1024 * 1024;

/** Plans of one kind (an add-on change, a modpack), stored under `kind`. */
export class PlanStore<P extends { planId: string } = Plan> {
  constructor(private readonly kind: string) {}

  async keep(db: Db, serverId: string, userId: number, plan: P): Promise<P> {
    const value = JSON.stringify(plan);
    const of = schema.oneTimeValues;
    await db.transaction(async (tx) => {
      const now = await clusterNow(db);
      await tx.delete(of).where(and(eq(of.kind, this.kind), lte(of.expiresAt, now))).run();
      // Every plan kept, oldest first (all live PLAN_TTL_MS, so the first to lapse is the oldest): keys and sizes, not the plans.
      const kept = await tx.select({ key: of.key, chars: sql<number>`length(${of.value})`, expiresAt: of.expiresAt }).from(of).where(eq(of.kind, this.kind)).orderBy(of.expiresAt).all();
      const mine = (key: string) => key.startsWith(`${userId}:`);
      let [count, chars, theirs, theirChars] = [kept.length, 0, 0, 0];
      for (const row of kept) {
        chars += Number(row.chars);
        if (mine(row.key)) [theirs, theirChars] = [theirs + 1, theirChars + Number(row.chars)];
      }
      const dropped: string[] = [];
      for (const row of kept) {
        const full = count >= MAX_PLANS || chars + value.length > MAX_PLAN_CHARS;
        const over = mine(row.key) && (theirs >= MAX_PLANS_PER_USER || theirChars + value.length > MAX_PLAN_CHARS_PER_USER);
        if (!full && !over) continue;
        dropped.push(row.key);
        [count, chars] = [count - 1, chars - Number(row.chars)];
        if (mine(row.key)) [theirs, theirChars] = [theirs - 1, theirChars - Number(row.chars)];
      }
      for (const key of dropped) await tx.delete(of).where(and(eq(of.kind, this.kind), eq(of.key, key))).run();
      // A millisecond after the newest when several are kept within one: their order stays the order kept.
      const expiresAt = Math.max(now + PLAN_TTL_MS, (kept.at(-1)?.expiresAt ?? 0) + 1);
      await tx.insert(of).values({ kind: this.kind, key: keyOf(serverId, userId, plan.planId), value, expiresAt }).run();
    });
    return plan;
  }

  /** The plan, removed in the same step (a second apply, through any panel, finds nothing). */
  async take(db: Db, serverId: string, userId: number, planId: string): Promise<P> {
    const taken = await takeValue(db, this.kind, keyOf(serverId, userId, planId), await clusterNow(db));
    if (taken === undefined) throw new KilnError("ErrModPlanUnknown");
    return JSON.parse(taken) as P;
  }
}

/** The maker and the server are in the key: a plan is found only by its maker on its server, and one user's plans are a prefix. */
const keyOf = (serverId: string, userId: number, planId: string) => `${userId}:${serverId}:${planId}`;
