// Attacks on what the login throttle counts under which name:
// - its account keys were one namespace: an email, an OAuth2 client id (the token endpoint) and an
//   account's numeric id (the two-factor step, the password a session is asked again) were all
//   "acct:<x>". Ten wrong secrets for client_id "1", from ten addresses, locked account 1's
//   two-factor step for 15 minutes; so did ten wrong passwords for the "email" 1. Each kind now has
//   its own, and an unknown client id counts against the address only;
// - a client_id or a login email of megabytes was stored whole as a throttle key (ten requests from
//   one address: 40 MiB of rows) after taking seconds of CPU to normalise. An id longer than any
//   client's and an email longer than any account's are refused before any work, and no key is
//   ever large.
// The panel trusts X-Forwarded-For here so each attempt can come from its own address.
import { beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { testPanel, type TestPanel } from "../helpers/app";
import { createUser } from "../../server/services/users";
import { SCOPES } from "../../core/scopes";
import { schema } from "../../db";
import { totpCode } from "../helpers/totp";
import { LoginThrottle, throttleKeys } from "../../server/services/auth/throttle";

const EMAIL = "admin@example.com";
const PASSWORD = "right-password-1";
let panel: TestPanel;
let userId: number;

/** Failures that lock (no slowing, so the tests need not wait out the delays). */
const LOCK = 3;

beforeEach(async () => {
  panel = await testPanel({ trustProxy: true });
  panel.deps.throttle = new LoginThrottle({ windowMs: 60_000, slowAfter: 100, lockAfter: LOCK, lockMs: 60_000, delayStepMs: 0, maxDelayMs: 0 }).storedIn(panel.db);
  ({ id: userId } = await createUser(panel.db, { username: "admin", email: EMAIL, password: PASSWORD, scopes: [SCOPES.admin] }));
});

const from = (address: string, path: string, init: RequestInit) => {
  const headers = new Headers(init.headers);
  headers.set("x-forwarded-for", address);
  return panel.request(path, { ...init, headers });
};
const jsonPost = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const tokenRequest = (fields: Record<string, string>) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", ...fields }).toString() });
const throttleRows = () => panel.db.select({ key: schema.oneTimeValues.key }).from(schema.oneTimeValues).where(eq(schema.oneTimeValues.kind, "throttle")).all();

/** Turns two-factor on for the account; answers its secret. */
async function enrolTwoFactor(): Promise<string> {
  const { session } = (await (await from("192.0.2.1", "/auth/login", jsonPost({ email: EMAIL, password: PASSWORD }))).json()) as { session: string };
  const { secret } = (await (await panel.request("/api/self/otp", { method: "POST", token: session })).json()) as { secret: string };
  expect((await panel.request("/api/self/otp", { method: "PUT", token: session, headers: { "content-type": "application/json" }, body: JSON.stringify({ token: totpCode(secret), password: PASSWORD }) })).status).toBe(204);
  return secret;
}

/** The account's holder logs in, password then code, from their own address: the code step's status. */
async function holderCodeStep(secret: string): Promise<number> {
  const started = await from("192.0.2.50", "/auth/login", jsonPost({ email: EMAIL, password: PASSWORD }));
  expect(await started.json()).toEqual({ otpNeeded: true });
  const cookie = `kiln_pending=${/kiln_pending=([^;]+)/.exec(started.headers.get("set-cookie")!)![1]}`;
  // The next step's code (one step of drift is allowed): the enrolment spent this step's.
  return (await from("192.0.2.50", "/auth/otp", { ...jsonPost({ token: totpCode(secret, Date.now() + 30_000) }), headers: { "content-type": "application/json", cookie } })).status;
}

describe("one name, one kind of thing", () => {
  test("wrong secrets for client_id \"<user id>\" do not lock that user's two-factor step", async () => {
    const secret = await enrolTwoFactor();
    for (let i = 0; i < LOCK; i++) expect((await from(`203.0.113.${i + 1}`, "/oauth2/token", tokenRequest({ client_id: String(userId), client_secret: `guess${i}` }))).status).toBe(401);
    expect(await holderCodeStep(secret)).toBe(200);
  });

  test("wrong passwords for the \"email\" \"<user id>\" do not lock that user's two-factor step", async () => {
    const secret = await enrolTwoFactor();
    for (let i = 0; i < LOCK; i++) expect((await from(`203.0.113.${i + 1}`, "/auth/login", jsonPost({ email: String(userId), password: `guess${i}` }))).status).toBe(400);
    expect(await holderCodeStep(secret)).toBe(200);
  });

  test("wrong secrets for an unknown client count against the address only: no key names the id", async () => {
    for (let i = 0; i < LOCK - 1; i++) await from("203.0.113.9", "/oauth2/token", tokenRequest({ client_id: `kiln_nosuchclient${i}`, client_secret: "guess" }));
    expect((await throttleRows()).map((row) => row.key)).toEqual(["addr:203.0.113.9"]);
  });

  test("control: a real client's wrong secrets lock that client, from any address", async () => {
    const { session } = (await (await from("192.0.2.1", "/auth/login", jsonPost({ email: EMAIL, password: PASSWORD }))).json()) as { session: string };
    const client = (await (await panel.request("/api/self/oauth2", { token: session, ...jsonPost({ name: "bot", password: PASSWORD }) })).json()) as { id: string; secret: string };
    for (let i = 0; i < LOCK; i++) expect((await from(`203.0.113.${i + 1}`, "/oauth2/token", tokenRequest({ client_id: client.id, client_secret: `guess${i}` }))).status).toBe(401);
    const locked = await from("192.0.2.77", "/oauth2/token", tokenRequest({ client_id: client.id, client_secret: client.secret }));
    expect(locked.status).toBe(429);
    expect(await locked.json()).toEqual({ error: "invalid_client", error_description: "too many attempts" });
  });
});

describe("no key is large, and a huge name costs nothing", () => {
  test("a client_id longer than any client's is refused before any work: OAuth2's error, no row", async () => {
    const huge = "x".repeat(4 * 1024 * 1024);
    const started = performance.now();
    for (let i = 0; i < LOCK + 2; i++) {
      const res = await from("203.0.113.7", "/oauth2/token", tokenRequest({ client_id: `${huge}${i}`, client_secret: "s" }));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "invalid_client" });
    }
    // Basic auth carries it the same way.
    const basic = `Basic ${Buffer.from(`${"y".repeat(64 * 1024)}:s`).toString("base64")}`;
    expect((await from("203.0.113.7", "/oauth2/token", { ...tokenRequest({}), headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic } })).status).toBe(401);
    expect(await throttleRows()).toEqual([]);
    // Five 4 MiB ids used to take seconds to normalise each; reading the bodies is all that is left.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  test("a login email longer than any account's is refused before any work: ErrInvalidCredentials, no row", async () => {
    const res = await from("203.0.113.8", "/auth/login", jsonPost({ email: `${"a".repeat(1024 * 1024)}@example.com`, password: "guess" }));
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("ErrInvalidCredentials");
    expect(await throttleRows()).toEqual([]);
  });

  test("every key the throttle makes is short, whatever it is given", () => {
    const long = "z".repeat(100_000);
    for (const keys of [throttleKeys({ clientId: long }, long), throttleKeys(userId, long), throttleKeys(`${"b".repeat(240)}@example.com`, "203.0.113.1")]) {
      for (const key of keys) expect(key.length).toBeLessThanOrEqual(300);
    }
    // Each kind is its own namespace.
    expect(new Set([throttleKeys("1", "a")[1], throttleKeys(1, "a")[1], throttleKeys({ clientId: "1" }, "a")[1]]).size).toBe(3);
  });
});
