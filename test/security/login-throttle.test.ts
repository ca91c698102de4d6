// Attacks on the login throttle: an account locked after failed logins stays locked however its
// email is spelled, and a burst of parallel guesses gets no more checks than sequential ones.
// The panel trusts X-Forwarded-For here so each attempt can come from its own address: the
// per-address lock would otherwise hide whether the per-account one holds.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, type TestPanel } from "../helpers/app";
import { createUser } from "../../server/services/users";
import { LoginThrottle } from "../../server/services/auth/throttle";
import { totpCode } from "../helpers/totp";

const EMAIL = "name@example.com";
const PASSWORD = "right-password-1";
let panel: TestPanel;
let address = 0;

beforeEach(async () => {
  panel = await testPanel({ trustProxy: true });
  await createUser(panel.db, { username: "victim", email: EMAIL, password: PASSWORD, scopes: [] });
});

/** A JSON call from an address no earlier call used. */
function fromNewAddress(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  address++;
  const forwarded = `198.51.${Math.floor(address / 250)}.${address % 250}`;
  return panel.request(path, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": forwarded, ...headers }, body: JSON.stringify(body) });
}

const login = (email: string, password: string) => fromNewAddress("/auth/login", { email, password });

/** A quick policy: three failures lock, no slowing, so a test need not wait out the delays. */
function quickThrottle(): void {
  panel.deps.throttle = new LoginThrottle({ windowMs: 60_000, slowAfter: 100, lockAfter: 3, lockMs: 60_000, delayStepMs: 0, maxDelayMs: 0 });
}

const SPELLINGS = [` ${EMAIL}`, `${EMAIL} `, `\t${EMAIL}`, `\n${EMAIL}`, `${EMAIL}\r\n`, "Name@Example.COM", "ｎａｍｅ@ｅｘａｍｐｌｅ.ｃｏｍ", `\u00a0${EMAIL}\u3000`];

describe("one account, one counter, whatever the spelling", () => {
  test("a locked account refuses even the right password under every other spelling", async () => {
    quickThrottle();
    for (let i = 0; i < 3; i++) expect((await login(EMAIL, "wrong-password")).status).toBe(400);
    for (const spelling of [EMAIL, ...SPELLINGS]) {
      const res = await login(spelling, PASSWORD);
      expect({ spelling, status: res.status }).toEqual({ spelling, status: 429 });
      expect((await res.json()).error.code).toBe("ErrTooManyRequests");
    }
    // The lock is the account's, not everyone's: another account logs in from a fresh address.
    await createUser(panel.db, { username: "bystander", email: "other@example.com", password: PASSWORD, scopes: [] });
    expect((await login("other@example.com", PASSWORD)).status).toBe(200);
  });

  test("failures under different spellings add up to one lock", async () => {
    quickThrottle();
    for (const spelling of SPELLINGS.slice(0, 3)) expect((await login(spelling, "wrong-password")).status).toBe(400);
    expect((await login(EMAIL, PASSWORD)).status).toBe(429);
  });

  test("the spellings a lock covers are the spellings that log in", async () => {
    for (const spelling of SPELLINGS) expect({ spelling, status: (await login(spelling, PASSWORD)).status }).toEqual({ spelling, status: 200 });
  });
});

describe("what counts", () => {
  test("a login without a password is refused but not counted, so it cannot lock someone else out", async () => {
    quickThrottle();
    for (let i = 0; i < 6; i++) expect((await login(EMAIL, "")).status).toBe(400);
    expect((await login(EMAIL, PASSWORD)).status).toBe(200);
  });

  test("the right password clears the account's failures", async () => {
    quickThrottle();
    for (let i = 0; i < 2; i++) expect((await login(EMAIL, "wrong-password")).status).toBe(400);
    expect((await login(EMAIL, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await login(EMAIL, "wrong-password")).status).toBe(400);
    expect((await login(EMAIL, PASSWORD)).status).toBe(200);
  });
});

describe("parallel guesses", () => {
  // The real policy: ten failures lock.
  test("40 parallel wrong passwords for one account: at most 10 are checked, the rest are 429", async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => login(EMAIL, "wrong-password")));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s !== 429 && s !== 400)).toEqual([]);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(0);
    // And the account is locked afterwards, for the right password too.
    expect((await login(EMAIL, PASSWORD)).status).toBe(429);
  });

  test("40 parallel wrong passwords from one address for 40 accounts: at most 10 are checked", async () => {
    const headers = { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" };
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => panel.request("/auth/login", { method: "POST", headers, body: JSON.stringify({ email: `guess${i}@example.com`, password: "x" }) })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 429 && s !== 400)).toEqual([]);
  });

  test("40 parallel wrong two-factor codes for one pending login: at most 10 are checked", async () => {
    const session = await login(EMAIL, PASSWORD);
    const token = (await session.json()).session as string;
    const { secret } = await (await panel.request("/api/self/otp", { method: "POST", token })).json();
    expect((await panel.request("/api/self/otp", { method: "PUT", token, headers: { "content-type": "application/json" }, body: JSON.stringify({ token: totpCode(secret), password: PASSWORD }) })).status).toBe(204);
    const started = await login(EMAIL, PASSWORD);
    expect(await started.json()).toEqual({ otpNeeded: true });
    const cookie = `kiln_pending=${/kiln_pending=([^;]+)/.exec(started.headers.get("set-cookie")!)![1]}`;
    const wrong = totpCode(secret, Date.now() + 10 * 60_000);
    const answers = await Promise.all(Array.from({ length: 40 }, () => fromNewAddress("/auth/otp", { token: wrong }, { cookie })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 429 && s !== 400)).toEqual([]);
    // The right code is refused too while the account's two-factor step is locked.
    expect((await fromNewAddress("/auth/otp", { token: totpCode(secret) }, { cookie })).status).toBe(429);
  });

  test("40 parallel forged passkey answers from one address: at most 10 are checked", async () => {
    const headers = { "content-type": "application/json", "x-forwarded-for": "203.0.113.10" };
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => panel.request("/auth/passkey/login", { method: "POST", headers, body: JSON.stringify({ response: { id: "forged", response: {} } }) })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});

describe("one address, one counter, whatever it logs into", () => {
  // A sprayer guesses one password at many accounts and logs into an account of their own
  // between guesses: were a success to forgive the address, its lock would never come.
  test("a success on the sprayer's own account does not forgive the address's failures", async () => {
    quickThrottle();
    await createUser(panel.db, { username: "sprayer", email: "sprayer@example.com", password: PASSWORD, scopes: [] });
    for (let i = 0; i < 6; i++) await createUser(panel.db, { username: `target${i}`, email: `target${i}@example.com`, password: `another-password-${i}`, scopes: [] });
    const fromOne = (email: string, password: string) => panel.request("/auth/login", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.7" }, body: JSON.stringify({ email, password }) });
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      answers.push((await fromOne(`target${i}@example.com`, "Summer2026!")).status);
      if (i % 2 === 1) answers.push((await fromOne("sprayer@example.com", PASSWORD)).status);
    }
    // Three failures lock the address: the fourth guess and every login after it are refused.
    expect(answers).toEqual([400, 400, 200, 400, 429, 429, 429, 429, 429]);
  });
});

describe("behind a proxy, the address is the one the proxy wrote", () => {
  // The proxy adds the caller's address at the end of X-Forwarded-For; whatever comes before it is
  // the caller's own writing. A sprayer who writes a new address before it each time, or who writes
  // a victim's, must still be counted as the address the proxy saw.
  const through = (written: string, seen: string, email: string, password: string) =>
    panel.request("/auth/login", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": `${written}, ${seen}` }, body: JSON.stringify({ email, password }) });

  test("hops written before the proxy's neither spread a sprayer's guesses nor lock another caller", async () => {
    quickThrottle();
    for (let i = 0; i < 6; i++) await createUser(panel.db, { username: `spread${i}`, email: `spread${i}@example.com`, password: `another-password-${i}`, scopes: [] });
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await through(`192.0.2.${i + 1}`, "203.0.113.50", `spread${i}@example.com`, "Summer2026!")).status);
    expect(answers).toEqual([400, 400, 400, 429, 429, 429]);
    // The sprayer wrote 203.0.113.51 before its own address: that caller still logs in.
    for (let i = 0; i < 3; i++) await through("203.0.113.51", "203.0.113.50", `spread${i}@example.com`, "Summer2026!");
    expect((await through("198.51.100.200", "203.0.113.51", EMAIL, PASSWORD)).status).toBe(200);
  });
});
