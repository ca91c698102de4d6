// Attack: an account holder (any account: a self-registered stranger's too) learning which
// addresses have accounts here by changing their own email. Registration hides it (a clash answers
// the generic ErrSavingInviteduser, and one address registers at most 10 times a day, clashes
// included), but the Account page's email change answered ErrDuplicateUser for a taken address and
// took any other, with nothing counted: 20 addresses tested in under a second, as many as the
// holder liked, with their own password. One account now changes its email at most
// EMAIL_CHANGES_PER_DAY times in any 24 hours, clashes included: the next is ErrTooManyRequests
// and nothing changes.
import { beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { errorOf } from "../helpers/refusal";
import { EMAIL_CHANGES_PER_DAY } from "../../server/services/users/email-change-quota";

let panel: TestPanel;
beforeAll(async () => {
  panel = await testPanel();
});

const change = (token: string, email: string) => panel.request("/api/self", { token, ...jsonInit("PUT", { password: "password123", email }) });
const emailOf = async (id: number) => (await panel.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, id)).get())!.email;

test(`probing addresses through one's own email change stops after ${EMAIL_CHANGES_PER_DAY} a day, clashes included`, async () => {
  const someone = await loginAs(panel.db, []);
  const prober = await loginAs(panel.db, []);
  for (let i = 0; i < EMAIL_CHANGES_PER_DAY; i++) {
    const res = await change(prober.token, i === 3 ? someone.email : `probe${i}@example.org`);
    expect(res.status).toBe(i === 3 ? 409 : 204);
  }
  const before = await emailOf(prober.userId);
  for (const probe of [someone.email, "next@example.org"]) {
    expect(await errorOf(await change(prober.token, probe))).toEqual({ status: 429, code: "ErrTooManyRequests" });
  }
  expect(await emailOf(prober.userId)).toBe(before);
});

test("control: another account changes its email, and a save that keeps the email (a username change) is not counted", async () => {
  const holder = await loginAs(panel.db, []);
  for (let i = 0; i < EMAIL_CHANGES_PER_DAY + 2; i++) {
    const res = await panel.request("/api/self", { token: holder.token, ...jsonInit("PUT", { password: "password123", email: holder.email, username: `renamed${i}x` }) });
    expect(res.status).toBe(204);
  }
  expect((await change(holder.token, "moved@example.org")).status).toBe(204);
  expect(await emailOf(holder.userId)).toBe("moved@example.org");
});
