// One second-factor code sent several times at once: each is burnt by one conditional write, so a
// recovery code signs in once however many pending logins send it together, and a TOTP code used
// to sign in cannot also switch two-factor off (or the other way round). Run on SQLite and, with
// KILN_TEST_ON_POSTGRES=1, on PostgreSQL, whose concurrent writers are real.
import { beforeEach, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { testPanel, loginAs, enrolledInTwoFactor, postFromNewAddress, type TestPanel } from "../helpers/app";
import { totpCode } from "../helpers/totp";
import { errorOf } from "../helpers/refusal";
import { schema } from "../../db";

let panel: TestPanel;

beforeEach(async () => {
  panel = await testPanel({ trustProxy: true });
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) => postFromNewAddress(panel, path, body, headers);

const enrolled = () => enrolledInTwoFactor(panel);

async function pendingLogin(email: string): Promise<string> {
  const started = await post("/auth/login", { email, password: "password123" });
  expect(await started.json()).toEqual({ otpNeeded: true });
  return `kiln_pending=${/kiln_pending=([^;]+)/.exec(started.headers.get("set-cookie")!)![1]}`;
}

const sessionsOf = async (userId: number) => (await panel.db.select({ n: count() }).from(schema.sessions).where(eq(schema.sessions.userId, userId)).get())!.n;

test("one recovery code sent by five pending logins at once signs in once; the others are told it was used", async () => {
  const user = await enrolled();
  const pending = await Promise.all(Array.from({ length: 5 }, () => pendingLogin(user.email)));
  const before = await sessionsOf(user.userId);
  const answers = await Promise.all(pending.map((cookie) => post("/auth/otp", { token: user.codes[0] }, { cookie })));
  expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  for (const refused of answers.filter((a) => a.status !== 200)) expect(await errorOf(refused)).toEqual({ status: 400, code: "ErrRecoveryCodeUsed" });
  // The pending logins are sessions of kind "pending" until taken: one became a session, four wait.
  expect(await sessionsOf(user.userId)).toBe(before);
  expect((await panel.db.$kiln.raw("select count(*) as n from recovery_codes where used_at is not null"))[0]).toEqual({ n: 1 });
});

test("one TOTP code sent to sign in and to switch two-factor off at once is accepted once", async () => {
  const user = await enrolled();
  // A code of the next time step: the enrolment burnt the current one.
  const code = totpCode(user.secret, Date.now() + 30_000);
  const cookie = await pendingLogin(user.email);
  const [login, off] = await Promise.all([post("/auth/otp", { token: code }, { cookie }), panel.request(`/api/self/otp/${code}`, { method: "DELETE", token: user.token })]);
  expect([login.status, off.status].filter((s) => s < 300)).toHaveLength(1);
  // The login lost: the code was spent, or two-factor went off with its secret first (a wrong code).
  if (login.status < 300) expect(await errorOf(off)).toEqual({ status: 400, code: "ErrOtpCodeUsed" });
  else expect([{ status: 400, code: "ErrOtpCodeUsed" }, { status: 400, code: "ErrTokenInvalid" }]).toContainEqual(await errorOf(login));
});
