// A holder of manageMods planning in a loop (each plan kept in the database until applied or 15
// minutes pass) pushes out only their own oldest plans: another user's plan, made a moment before,
// still applies; what the looping user keeps stays bounded.
import { expect, test } from "bun:test";
import { openDatabase } from "../../db";
import { MAX_PLANS_PER_USER, PlanStore } from "../../server/services/mods/plan-store";

const plan = (planId: string) => ({ planId });

test("a user planning in a loop pushes out their own oldest plans, never another user's", async () => {
  const db = await openDatabase(":memory:");
  const store = new PlanStore<{ planId: string }>("test-plan");
  await store.keep(db, "s1", 1, plan("theirs"));
  for (let i = 0; i < 1500; i++) await store.keep(db, "s2", 2, plan(`loop-${i}`));
  // The other user's plan is intact and applies once.
  expect(await store.take(db, "s1", 1, "theirs")).toEqual(plan("theirs"));
  await expect(store.take(db, "s1", 1, "theirs")).rejects.toMatchObject({ code: "ErrModPlanUnknown" });
  // The looping user keeps their newest MAX_PLANS_PER_USER, the older ones are gone.
  expect(await store.take(db, "s2", 2, "loop-1499")).toEqual(plan("loop-1499"));
  expect(await store.take(db, "s2", 2, `loop-${1500 - MAX_PLANS_PER_USER}`)).toEqual(plan(`loop-${1500 - MAX_PLANS_PER_USER}`));
  await expect(store.take(db, "s2", 2, `loop-${1500 - MAX_PLANS_PER_USER - 1}`)).rejects.toMatchObject({ code: "ErrModPlanUnknown" });
  await expect(store.take(db, "s2", 2, "loop-0")).rejects.toMatchObject({ code: "ErrModPlanUnknown" });
});

test("a plan is its maker's on its server only", async () => {
  const db = await openDatabase(":memory:");
  const store = new PlanStore<{ planId: string }>("test-plan");
  await store.keep(db, "s1", 1, plan("p"));
  await expect(store.take(db, "s1", 2, "p")).rejects.toMatchObject({ code: "ErrModPlanUnknown" });
  await expect(store.take(db, "s2", 1, "p")).rejects.toMatchObject({ code: "ErrModPlanUnknown" });
  expect(await store.take(db, "s1", 1, "p")).toEqual(plan("p"));
});
