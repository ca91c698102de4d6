// Accounts through the JSON API: registration, two-factor, sessions, users, scopes, settings,
// OAuth2 clients and tokens, invitations by real email, and the login throttle.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, type TestPanel } from "./helpers/app";
import { totpCode } from "./helpers/totp";
import { createUser } from "../server/services/users";
import { setSetting } from "../server/services/settings";
import { LoginThrottle } from "../server/services/auth/throttle";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

const json = (method: string, body?: unknown, extra: Record<string, string> = {}) => ({
  method,
  headers: { "content-type": "application/json", ...extra },
  body: body === undefined ? undefined : JSON.stringify(body),
});
const errorCode = async (res: Response) => (await res.json()).error.code as string;

describe("registration", () => {
  test("refused while the setting is off", async () => {
    const res = await panel.request("/auth/register", json("POST", { username: "newbie", email: "n@example.com", password: "password123" }));
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe("ErrNoPermission");
  });

  test("when on: returns token and no scopes; the token works", async () => {
    await setSetting(panel.db, "panel.registrationEnabled", "true");
    const res = await panel.request("/auth/register", json("POST", { username: "newbie", email: "n@example.com", password: "password123" }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.scopes).toEqual([]);
    const self = await panel.request("/api/self", { headers: { authorization: `Bearer ${body.token}` } });
    expect((await self.json()).username).toBe("newbie");
  });

  test("each validation rule answers its code", async () => {
    await setSetting(panel.db, "panel.registrationEnabled", "true");
    const cases: [Record<string, string>, string][] = [
      [{ username: "abc", email: "a@example.com", password: "password123" }, "ErrUsernameRequirements"],
      [{ username: "bad name!", email: "a@example.com", password: "password123" }, "ErrUsernameRequirements"],
      [{ username: "gooduser", email: "not-an-email", password: "password123" }, "ErrFieldNotEmail"],
      [{ username: "gooduser", email: "", password: "password123" }, "ErrFieldRequired"],
      [{ username: "gooduser", email: "a@example.com", password: "short" }, "ErrPasswordRequirements"],
      [{ username: "gooduser", email: "a@example.com", password: "password123", passwordConfirm: "password124" }, "ErrPasswordsNotIdentical"],
    ];
    for (const [body, code] of cases) expect(await errorCode(await panel.request("/auth/register", json("POST", body)))).toBe(code);
    expect((await panel.db.$kiln.raw("select count(*) as n from users"))[0]).toEqual({ n: 0 });
  });

  test("a taken email does not say so", async () => {
    await setSetting(panel.db, "panel.registrationEnabled", "true");
    await createUser(panel.db, { username: "taken", email: "t@example.com", password: "password123" });
    expect(await errorCode(await panel.request("/auth/register", json("POST", { username: "other", email: "t@example.com", password: "password123" })))).toBe("ErrSavingInviteduser");
  });
});

describe("two-factor", () => {
  async function enrol(token: string): Promise<string> {
    const start = await panel.request("/api/self/otp", { method: "POST", token });
    const { secret, img } = await start.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(img).toStartWith("data:image/png;base64,");
    // Not on until confirmed.
    expect(await (await panel.request("/api/self/otp", { token })).json()).toEqual({ otpEnabled: false, recoveryCodesLeft: 0 });
    expect(await errorCode(await panel.request("/api/self/otp", { ...json("PUT", { token: "000000", password: "password123" }), token }))).toBe("ErrTokenInvalid");
    expect((await panel.request("/api/self/otp", { ...json("PUT", { token: totpCode(secret), password: "password123" }), token })).status).toBe(204);
    expect(await (await panel.request("/api/self/otp", { token })).json()).toEqual({ otpEnabled: true, recoveryCodesLeft: 10 });
    return secret;
  }

  test("enrol, then login needs a code; a code works once; the pending cookie is required", async () => {
    const { token, email } = await loginAs(panel.db);
    const secret = await enrol(token);
    const login = await panel.request("/auth/login", json("POST", { email, password: "password123" }));
    expect(await login.json()).toEqual({ otpNeeded: true });
    const pending = /kiln_pending=([^;]+)/.exec(login.headers.get("set-cookie")!)![1]!;
    // Without the pending cookie the code proves nothing.
    expect(await errorCode(await panel.request("/auth/otp", json("POST", { token: totpCode(secret, Date.now() + 30_000) })))).toBe("ErrInvalidTokenState");
    // The code of the enrolment is spent (and said to be); the next period's code is accepted (window ±1).
    const spent = await panel.request("/auth/otp", json("POST", { token: totpCode(secret) }, { cookie: `kiln_pending=${pending}` }));
    expect(await errorCode(spent)).toBe("ErrOtpCodeUsed");
    const next = totpCode(secret, Date.now() + 30_000);
    const ok = await panel.request("/auth/otp", json("POST", { token: next }, { cookie: `kiln_pending=${pending}` }));
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(typeof body.session).toBe("string");
    // The pending token is gone and cannot be used again, nor can the code.
    const again = await panel.request("/auth/otp", json("POST", { token: next }, { cookie: `kiln_pending=${pending}` }));
    expect(await errorCode(again)).toBe("ErrInvalidTokenState");
  });

  test("a pending login is not a session", async () => {
    const { token, email } = await loginAs(panel.db);
    await enrol(token);
    const login = await panel.request("/auth/login", json("POST", { email, password: "password123" }));
    const pending = /kiln_pending=([^;]+)/.exec(login.headers.get("set-cookie")!)![1]!;
    expect((await panel.request("/api/self", { headers: { authorization: `Bearer ${pending}` } })).status).toBe(401);
  });

  test("removing two-factor needs a current code", async () => {
    const { token } = await loginAs(panel.db);
    const secret = await enrol(token);
    expect(await errorCode(await panel.request("/api/self/otp/123456", { method: "DELETE", token }))).toBe("ErrTokenInvalid");
    expect((await panel.request(`/api/self/otp/${totpCode(secret, Date.now() + 30_000)}`, { method: "DELETE", token })).status).toBe(204);
    expect(await (await panel.request("/api/self/otp", { token })).json()).toEqual({ otpEnabled: false, recoveryCodesLeft: 0 });
  });
});

describe("sessions", () => {
  test("reauth gives a new session and retires the old one", async () => {
    const { token } = await loginAs(panel.db);
    const res = await panel.request("/auth/reauth", { method: "POST", token });
    const { session } = await res.json();
    expect(session).not.toBe(token);
    expect(res.headers.get("set-cookie")).toContain(`kiln=${session}`);
    expect((await panel.request("/api/self", { token })).status).toBe(401);
    expect((await panel.request("/api/self", { token: session })).status).toBe(200);
    expect(await errorCode(await panel.request("/auth/reauth", { method: "POST" }))).toBe("ErrSessionTimedOut");
  });

  test("a new session id is issued at every login", async () => {
    await createUser(panel.db, { username: "twice", email: "tw@example.com", password: "password123" });
    const a = await (await panel.request("/auth/login", json("POST", { email: "tw@example.com", password: "password123" }))).json();
    const b = await (await panel.request("/auth/login", json("POST", { email: "tw@example.com", password: "password123" }))).json();
    expect(a.session).not.toBe(b.session);
  });
});

describe("login throttle", () => {
  test("failures slow, then refuse with 429, for the account and for the address", async () => {
    const slept: number[] = [];
    let now = 1_000_000;
    panel.deps.throttle = new LoginThrottle({ windowMs: 60_000, slowAfter: 2, lockAfter: 4, lockMs: 60_000, delayStepMs: 100, maxDelayMs: 1000 }, () => now, async (ms) => void slept.push(ms));
    const app = (await import("../server/app")).createApp(panel.deps);
    const attempt = (email: string, password: string) => app.request("http://localhost/auth/login", json("POST", { email, password }));
    await createUser(panel.db, { username: "victim", email: "v@example.com", password: "password123" });
    for (let i = 0; i < 4; i++) expect((await attempt("v@example.com", "wrong-pass")).status).toBe(400);
    // Slowing starts past two failures: the fourth attempt waited one step.
    expect(slept).toEqual([100]);
    const locked = await attempt("v@example.com", "password123");
    expect(locked.status).toBe(429);
    expect(await errorCode(locked)).toBe("ErrTooManyRequests");
    // Another account from the same address is refused too: the address is locked.
    expect((await attempt("someone@example.com", "x")).status).toBe(429);
    now += 61_000;
    expect((await attempt("v@example.com", "password123")).status).toBe(200);
  });
});
