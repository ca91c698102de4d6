// Plans between "here is what will happen" and "do it": kept in the panel's memory for their
// maker on their server only, for PLAN_TTL_MS, used once. A plan id from someone else, another
// server, or too late is ErrModPlanUnknown: what is applied is exactly what its maker was shown.
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

interface Kept<P> {
  serverId: string;
  userId: number;
  plan: P;
  at: number;
}

/** Plans of one kind (an add-on change, a modpack). */
export class PlanStore<P extends { planId: string } = Plan> {
  private readonly plans = new Map<string, Kept<P>>();

  keep(serverId: string, userId: number, plan: P): P {
    const now = Date.now();
    let theirs = 0;
    for (const kept of this.plans.values()) if (kept.userId === userId) theirs++;
    // Map order is the order kept: the first ones met are the oldest.
    for (const [id, kept] of this.plans) {
      const mine = kept.userId === userId;
      if (now - kept.at > PLAN_TTL_MS || this.plans.size >= MAX_PLANS || (mine && theirs >= MAX_PLANS_PER_USER)) {
        this.plans.delete(id);
        if (mine) theirs--;
      }
    }
    this.plans.set(plan.planId, { serverId, userId, plan, at: now });
    return plan;
  }

  take(serverId: string, userId: number, planId: string): P {
    const kept = this.plans.get(planId);
    if (!kept || kept.serverId !== serverId || kept.userId !== userId || Date.now() - kept.at > PLAN_TTL_MS) throw new KilnError("ErrModPlanUnknown");
    this.plans.delete(planId);
    return kept.plan;
  }
}
