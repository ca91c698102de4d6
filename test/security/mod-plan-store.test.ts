// A holder of manageMods planning in a loop (each plan kept in the panel's memory until applied or
// 15 minutes pass) pushes out only their own oldest plans: another user's plan, made a moment
// before, still applies; what the looping user keeps stays bounded.
import { expect, test } from "bun:test";
import { MAX_PLANS_PER_USER, PlanStore } from "../../server/services/mods/plan-store";

const plan = (planId: string) => ({ planId });

test("a user planning in a loop pushes out their own oldest plans, never another user's", () => {
  const store = new PlanStore<{ planId: string }>();
  store.keep("s1", 1, plan("theirs"));
  for (let i = 0; i < 1500; i++) store.keep("s2", 2, plan(`loop-${i}`));
  // The other user's plan is intact and applies once.
  expect(store.take("s1", 1, "theirs")).toEqual(plan("theirs"));
  expect(() => store.take("s1", 1, "theirs")).toThrow(expect.objectContaining({ code: "ErrModPlanUnknown" }));
  // The looping user keeps their newest MAX_PLANS_PER_USER, the older ones are gone.
  expect(store.take("s2", 2, "loop-1499")).toEqual(plan("loop-1499"));
  expect(store.take("s2", 2, `loop-${1500 - MAX_PLANS_PER_USER}`)).toEqual(plan(`loop-${1500 - MAX_PLANS_PER_USER}`));
  expect(() => store.take("s2", 2, `loop-${1500 - MAX_PLANS_PER_USER - 1}`)).toThrow(expect.objectContaining({ code: "ErrModPlanUnknown" }));
  expect(() => store.take("s2", 2, "loop-0")).toThrow(expect.objectContaining({ code: "ErrModPlanUnknown" }));
});

test("a plan is its maker's on its server only", () => {
  const store = new PlanStore<{ planId: string }>();
  store.keep("s1", 1, plan("p"));
  expect(() => store.take("s1", 2, "p")).toThrow(expect.objectContaining({ code: "ErrModPlanUnknown" }));
  expect(() => store.take("s2", 1, "p")).toThrow(expect.objectContaining({ code: "ErrModPlanUnknown" }));
  expect(store.take("s1", 1, "p")).toEqual(plan("p"));
});
