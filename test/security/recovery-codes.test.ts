// Attacks on two-factor recovery codes: guessing them goes through the login throttle
// (per account, from any number of addresses); a code works once; another account's code is
// worth nothing; new codes need the password or a current TOTP code, never just the session;
// wrong-shaped and oversized bodies are refused. Each refusal is a catalogue error and changes
// nothing. The panel trusts X-Forwarded-For so each guess can come from its own address.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, enrolledInTwoFactor, postFromNewAddress, type TestPanel } from "../helpers/app";
import { totpCode } from "../helpers/totp";
import { refusals } from "../helpers/refusal";
import { LoginThrottle } from "../../server/services/auth/throttle";

let panel: TestPanel;

beforeEach(async () => {
  panel = await testPanel({ trustProxy: true });
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) => postFromNewAddress(panel, path, body, headers);

const enrolled = () => enrolledInTwoFactor(panel);

/** The cookie of a login that passed the password and waits for its second factor. */
async function pendingLogin(email: string): Promise<string> {
  const started = await post("/auth/login", { email, password: "password123" });
  expect(await started.json()).toEqual({ otpNeeded: true });
  return `kiln_pending=${/kiln_pending=([^;]+)/.exec(started.headers.get("set-cookie")!)![1]}`;
}

const codesTable = async () => (await panel.db.$kiln.raw("select user_id, code_hash, used_at from recovery_codes order by user_id, code_hash"));
const { refused } = refusals(async () => ({ codes: await codesTable(), users: (await panel.db.$kiln.raw("select id, otp_enabled, otp_secret from users order by id")) }));

describe("guessing recovery codes", () => {
  test("wrong codes from many addresses lock the account's two-factor step; then even a right code is refused", async () => {
    panel.deps.throttle = new LoginThrottle({ windowMs: 60_000, slowAfter: 100, lockAfter: 3, lockMs: 60_000, delayStepMs: 0, maxDelayMs: 0 });
    const victim = await enrolled();
    const cookie = await pendingLogin(victim.email);
    for (const guess of ["0000-0000-0000-0000", "abcd-efgh-jkmn-pqrs", "zzzz-zzzz-zzzz-zzzz"]) {
      expect((await (await post("/auth/otp", { token: guess }, { cookie })).json()).error.code).toBe("ErrTokenInvalid");
    }
    const locked = await post("/auth/otp", { token: victim.codes[0] }, { cookie });
    expect(locked.status).toBe(429);
    expect((await locked.json()).error.code).toBe("ErrTooManyRequests");
    // The refused right code was not spent.
    expect(await (await panel.request("/api/self/otp", { token: victim.token })).json()).toEqual({ otpEnabled: true, recoveryCodesLeft: 10 });
  });

  test("40 parallel guesses for one pending login: at most 10 are checked", async () => {
    const victim = await enrolled();
    const cookie = await pendingLogin(victim.email);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post("/auth/otp", { token: `${String(i).padStart(4, "0")}-0000-0000-0000` }, { cookie })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 429 && s !== 400)).toEqual([]);
  });
});

describe("one use, one account", () => {
  test("a recovery code logs in once; the second time it is said to be used", async () => {
    const victim = await enrolled();
    const first = await post("/auth/otp", { token: victim.codes[3] }, { cookie: await pendingLogin(victim.email) });
    expect(first.status).toBe(200);
    expect(typeof (await first.json()).session).toBe("string");
    const cookie = await pendingLogin(victim.email);
    await refused(() => post("/auth/otp", { token: victim.codes[3] }, { cookie }), { status: 400, code: "ErrRecoveryCodeUsed" });
    expect(await (await panel.request("/api/self/otp", { token: victim.token })).json()).toEqual({ otpEnabled: true, recoveryCodesLeft: 9 });
  });

  test("a TOTP code used once is refused as used within its window", async () => {
    const victim = await enrolled();
    const code = totpCode(victim.secret, Date.now() + 30_000);
    expect((await post("/auth/otp", { token: code }, { cookie: await pendingLogin(victim.email) })).status).toBe(200);
    const cookie = await pendingLogin(victim.email);
    const again = await post("/auth/otp", { token: code }, { cookie });
    expect((await again.json()).error).toMatchObject({ code: "ErrOtpCodeUsed", msg: expect.stringContaining("already used") });
  });

  test("another account's recovery code does not log in, nor spend it", async () => {
    const victim = await enrolled();
    const other = await enrolled();
    const cookie = await pendingLogin(victim.email);
    await refused(() => post("/auth/otp", { token: other.codes[0] }, { cookie }), { status: 400, code: "ErrTokenInvalid" });
    expect((await post("/auth/otp", { token: other.codes[0] }, { cookie: await pendingLogin(other.email) })).status).toBe(200);
  });

  test("a recovery code is no session and no password: without a pending login it proves nothing", async () => {
    const victim = await enrolled();
    await refused(() => post("/auth/otp", { token: victim.codes[0] }), { status: 400, code: "ErrInvalidTokenState" });
    await refused(() => post("/auth/login", { email: victim.email, password: victim.codes[0] }), { status: 400, code: "ErrInvalidCredentials" });
  });
});

describe("making new codes", () => {
  test("needs the password or a current code, not just the session", async () => {
    const victim = await enrolled();
    const call = (body: unknown) => panel.request("/api/self/otp/recovery", { method: "POST", token: victim.token, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    await refused(() => call({}), { status: 400, code: "ErrFieldRequired" });
    await refused(() => call({ password: "" }), { status: 400, code: "ErrFieldRequired" });
    await refused(() => call({ password: "wrong-password" }), { status: 401, code: "ErrInvalidCredentials" });
    await refused(() => call({ token: "000000" }), { status: 400, code: "ErrTokenInvalid" });
    // A recovery code is not a proof here: it would let a stolen code mint ten more.
    await refused(() => call({ token: victim.codes[0] }), { status: 400, code: "ErrTokenInvalid" });
    await refused(() => call({ password: "x".repeat(2000) }), { status: 400, code: "ErrFieldTooLarge" });
    await refused(() => call({ password: ["password123"] }), { status: 400, code: "ErrFieldRequired" });
    await refused(() => call({ token: "$(reboot)\n'\"" }), { status: 400, code: "ErrTokenInvalid" });
    // The form, without script, the same.
    const form = (fields: Record<string, string>) => panel.request("/account/otp/recovery", { method: "POST", token: victim.token, headers: { "content-type": "application/x-www-form-urlencoded", ...HTML }, body: new URLSearchParams(fields).toString() });
    const before = await codesTable();
    expect((await form({ password: "", token: "" })).status).toBe(400);
    expect((await form({ password: "wrong-password", token: "" })).status).toBe(401);
    expect(await codesTable()).toEqual(before);
    // With the password: ten new codes, and the old ones are gone.
    const fresh = await call({ password: "password123" });
    expect(fresh.status).toBe(200);
    const { codes } = await fresh.json();
    expect(codes.some((c: string) => victim.codes.includes(c))).toBe(false);
    const cookie = await pendingLogin(victim.email);
    expect((await (await post("/auth/otp", { token: victim.codes[1] }, { cookie })).json()).error.code).toBe("ErrTokenInvalid");
  });

  test("wrong passwords here count towards the account's throttle", async () => {
    panel.deps.throttle = new LoginThrottle({ windowMs: 60_000, slowAfter: 100, lockAfter: 3, lockMs: 60_000, delayStepMs: 0, maxDelayMs: 0 });
    const victim = await enrolled();
    const call = (body: unknown) => post("/api/self/otp/recovery", body, { cookie: `kiln=${victim.token}` });
    for (let i = 0; i < 3; i++) expect((await call({ password: `wrong-${i}` })).status).toBe(401);
    expect((await call({ password: "password123" })).status).toBe(429);
  });

  test("without two-factor on, or without a login, nothing is made", async () => {
    const plain = await loginAs(panel.db);
    await refused(() => panel.request("/api/self/otp/recovery", { method: "POST", token: plain.token, headers: { "content-type": "application/json" }, body: JSON.stringify({ password: "password123" }) }), { status: 400, code: "ErrInvalidTokenState" });
    await refused(() => panel.request("/api/self/otp/recovery", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ password: "password123" }) }), { status: 401, code: "ErrSessionTimedOut" });
  });
});

describe("cancelling and switching off", () => {
  test("cancelling an enrolment discards its secret; it cannot cancel two-factor that is on", async () => {
    const user = await loginAs(panel.db);
    await panel.request("/api/self/otp", { method: "POST", token: user.token });
    expect((await panel.db.$kiln.raw("select otp_secret from users where id = ?", [user.userId]))[0]).not.toEqual({ otp_secret: null });
    expect((await panel.request("/api/self/otp", { method: "DELETE", token: user.token })).status).toBe(204);
    expect((await panel.db.$kiln.raw("select otp_secret, otp_enabled from users where id = ?", [user.userId]))[0]).toEqual({ otp_secret: null, otp_enabled: 0 });
    const victim = await enrolled();
    await refused(() => panel.request("/api/self/otp", { method: "DELETE", token: victim.token }), { status: 400, code: "ErrInvalidTokenState" });
  });

  test("a recovery code switches two-factor off, and the codes go with it", async () => {
    const victim = await enrolled();
    expect((await panel.request(`/api/self/otp/${victim.codes[0]}`, { method: "DELETE", token: victim.token })).status).toBe(204);
    expect(await (await panel.request("/api/self/otp", { token: victim.token })).json()).toEqual({ otpEnabled: false, recoveryCodesLeft: 0 });
    expect((await panel.db.$kiln.raw("select count(*) as n from recovery_codes where user_id = ?", [victim.userId]))[0]).toEqual({ n: 0 });
  });
});
