// Plans between "here is what will happen" and "do it": kept in the panel's memory for their
// maker on their server only, for PLAN_TTL_MS, used once. A plan id from someone else, another
// server, or too late is ErrModPlanUnknown: what is applied is exactly what its maker was shown.
// What is kept is bounded by count and by size (a modpack's plan lists every file it lays over
// the folder: megabytes for a large pack), per user and in all.
import { KilnError } from "../../../core/errors";
import type { Plan } from "../../../core/mods/types";

export const PLAN_TTL_MS = 15 * 60 * 1000;
/** Plans kept at most (the oldest go first): users making plans in a loop hold bounded memory. */
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

interface Kept<P> {
  serverId: string;
  userId: number;
  plan: P;
  at: number;
  chars: number;
}

/** Plans of one kind (an add-on change, a modpack). */
export class PlanStore<P extends { planId: string } = Plan> {
  private readonly plans = new Map<string, Kept<P>>();
  private chars = 0;

  keep(serverId: string, userId: number, plan: P): P {
    const now = Date.now();
    const chars = JSON.stringify(plan).length;
    let theirs = 0;
    let theirChars = 0;
    for (const kept of this.plans.values()) {
      if (kept.userId !== userId) continue;
      theirs++;
      theirChars += kept.chars;
    }
    // Map order is the order kept: the first ones met are the oldest.
    for (const [id, kept] of this.plans) {
      const mine = kept.userId === userId;
      const full = this.plans.size >= MAX_PLANS || this.chars + chars > MAX_PLAN_CHARS;
      if (now - kept.at > PLAN_TTL_MS || full || (mine && (theirs >= MAX_PLANS_PER_USER || theirChars + chars > MAX_PLAN_CHARS_PER_USER))) {
        this.drop(id, kept);
        if (mine) {
          theirs--;
          theirChars -= kept.chars;
        }
      }
    }
    this.plans.set(plan.planId, { serverId, userId, plan, at: now, chars });
    this.chars += chars;
    return plan;
  }

  take(serverId: string, userId: number, planId: string): P {
    const kept = this.plans.get(planId);
    if (!kept || kept.serverId !== serverId || kept.userId !== userId || Date.now() - kept.at > PLAN_TTL_MS) throw new KilnError("ErrModPlanUnknown");
    this.drop(planId, kept);
    return kept.plan;
  }

  private drop(planId: string, kept: Kept<P>): void {
    this.plans.delete(planId);
    this.chars -= kept.chars;
  }
}
