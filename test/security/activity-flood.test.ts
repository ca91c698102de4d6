// Attacks on the activity log by whoever can reach the login page, signed in or not: refused
// logins sent over and over, to fill the log (and every webhook listening to user.*) and, once
// the log reaches panel.activity.maxRows, to have the hourly prune push the administrators' own
// actions out of it. A refused login is its own row at most LOGGED_PER_WINDOW times a window per
// address and per account, after which (and for every refusal of the throttle itself) it is counted
// on one user.login.throttled row; past the row cap refused logins go before any other row. A
// wrong password is still recorded about its account.
import { beforeEach, describe, expect, test } from "bun:test";
import { and, count, eq, isNull } from "drizzle-orm";
import { schema } from "../../db";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { SCOPES } from "../../core/scopes";
import type { EventName } from "../../core/activity";
import { DEFAULT_THROTTLE, LoginThrottle } from "../../server/services/auth/throttle";
import { recordEvent } from "../../server/services/activity/record";
import { pruneActivity } from "../../server/services/activity/retention";
import { setSetting, SETTING_KEYS } from "../../server/services/settings";

const LOGGED = 10;
let panel: TestPanel;
let admin: { token: string; userId: number; email: string };

beforeEach(async () => {
  // Each attempt's address is the proxy's to say, so a test can come from many.
  panel = await testPanel({ trustProxy: true });
  // The default policy (ten failures lock for 15 minutes) without its slowing, so a test need not wait it out.
  panel.deps.throttle = new LoginThrottle({ ...DEFAULT_THROTTLE, slowAfter: 1000, delayStepMs: 0, maxDelayMs: 0 }).storedIn(panel.db);
  admin = await loginAs(panel.db, [SCOPES.admin]);
  const hook = await panel.request("/api/webhooks", { method: "POST", token: admin.token, headers: { "content-type": "application/json", origin: "http://localhost" }, body: JSON.stringify({ url: "https://example.com/alerts", events: ["*"] }) });
  expect(hook.status).toBe(201);
});

const login = (address: string, body: Record<string, string>) => panel.request("/auth/login", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": address }, body: JSON.stringify(body) });
const rows = async (event: string) => await panel.db.select().from(schema.activity).where(eq(schema.activity.event, event)).orderBy(schema.activity.id).all();
/** `names.length` rows of `event` by the system, in one statement (a prune's input, no deliveries). */
const logRows = async (event: EventName, names: string[], extra: { subject?: string; reason?: string; ip?: (i: number) => string } = {}) => {
  const at = Date.now();
  await panel.db.insert(schema.activity).values(names.map((name, i) => ({ event, actorType: "system" as const, actorId: null, actorName: null, onBehalfOf: null, serverId: null, subject: extra.subject ?? null, ip: extra.ip?.(i) ?? null, properties: JSON.stringify(extra.reason ? { username: name, reason: extra.reason } : { name }), at: at + i }))).run();
};
const deliveries = async () => (await panel.db.select({ n: count() }).from(schema.webhookDeliveries).get())!.n;

describe("a flood of refused logins", () => {
  test("past the throttle's lock, refusals are counted on one row and one delivery, not written one by one", async () => {
    // Several times the throttle's lock: enough that one row per refusal would show.
    const TRIES = 6 * DEFAULT_THROTTLE.lockAfter;
    const queued = await deliveries();
    const statuses: number[] = [];
    for (let i = 0; i < TRIES; i++) statuses.push((await login("203.0.113.66", { email: "nobody@example.com", password: "x" })).status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(DEFAULT_THROTTLE.lockAfter);
    expect(statuses.filter((s) => s === 429)).toHaveLength(TRIES - DEFAULT_THROTTLE.lockAfter);
    // Every guess the throttle let through is its own row; its refusals are one counted row.
    expect(await rows("user.login.failed")).toHaveLength(DEFAULT_THROTTLE.lockAfter);
    const throttled = await rows("user.login.throttled");
    expect(throttled).toHaveLength(1);
    expect(throttled[0]).toMatchObject({ actorType: "system", ip: "203.0.113.66", subject: null });
    expect(JSON.parse(throttled[0]!.properties)).toMatchObject({ username: "nobody@example.com", reason: "ErrTooManyRequests", count: TRIES - DEFAULT_THROTTLE.lockAfter });
    expect((await deliveries()) - queued).toBe(DEFAULT_THROTTLE.lockAfter + 1);
  }, 60_000);

  test("refusals the throttle does not count (a missing password, a made-up sign-in provider) are bounded all the same", async () => {
    for (let i = 0; i < 100; i++) expect((await login("203.0.113.7", { email: `someone${i}@example.com`, password: "" })).status).toBe(400);
    for (let i = 0; i < 50; i++) await panel.request(`/auth/sso/nope${i}/callback?code=x&state=y`, { headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(await rows("user.login.failed")).toHaveLength(LOGGED);
    const throttled = await rows("user.login.throttled");
    expect(throttled).toHaveLength(1);
    expect(JSON.parse(throttled[0]!.properties)).toMatchObject({ count: 150 - LOGGED });
  }, 60_000);

  test("an account's refusals from address after address are one counted row about it once it is locked", async () => {
    const victim = await loginAs(panel.db, []);
    for (let i = 0; i < 60; i++) await login(`198.51.100.${i + 1}`, { email: i % 2 ? victim.email : victim.email.toUpperCase(), password: "guess" });
    expect(await rows("user.login.failed")).toHaveLength(LOGGED);
    const throttled = await rows("user.login.throttled");
    expect(throttled).toHaveLength(1);
    expect(throttled[0]).toMatchObject({ subject: String(victim.userId) });
    expect(JSON.parse(throttled[0]!.properties)).toMatchObject({ count: 60 - LOGGED });
  }, 60_000);

  test("refusals from many addresses fill the log past its cap, and the prune takes them, never the administrators' actions", async () => {
    await setSetting(panel.db, SETTING_KEYS.activityMaxRows, "1000");
    // What an administrator would look for later, and a user's own login and a wrong guess at their account.
    await recordEvent(panel.db, "user.scopes.changed", { actor: { type: "user", id: String(admin.userId), name: "admin" }, subject: 99, properties: { username: "mallory", old: [], new: ["admin"] } });
    const user = await loginAs(panel.db, []);
    expect((await login("192.0.2.1", { email: user.email, password: "not-it" })).status).toBe(400);
    expect((await login("192.0.2.1", { email: user.email, password: "password123" })).status).toBe(200);
    // Refusals about no account up to just below the cap, as earlier floods left them (written
    // directly: a thousand logins cost this file a minute on PostgreSQL under load), then past it
    // through the login form, from address after address, twenty at a time.
    await logRows("user.login.failed", Array.from({ length: 900 }, (_, i) => `earlier${i}@example.com`), { reason: "ErrFieldRequired", ip: (i) => `10.8.${i >> 8}.${i & 255}` });
    const addresses = Math.ceil(101 / LOGGED) + 1;
    for (let from = 0; from < addresses; from += 20) {
      await Promise.all(Array.from({ length: Math.min(20, addresses - from) }, async (_, k) => {
        const address = from + k;
        for (let i = 0; i < LOGGED; i++) await login(`10.9.${address >> 8}.${address & 255}`, { email: `x${address}-${i}@example.com`, password: "" });
      }));
    }
    const noise = (await panel.db.select({ n: count() }).from(schema.activity).where(and(eq(schema.activity.event, "user.login.failed"), isNull(schema.activity.subject))).get())!.n;
    expect(noise).toBeGreaterThan(1000);
    expect(noise - 900).toBe(addresses * LOGGED);
    await pruneActivity(panel.db);
    expect((await panel.db.select({ n: count() }).from(schema.activity).get())!.n).toBe(1000);
    expect(await rows("user.scopes.changed")).toHaveLength(1);
    expect((await rows("user.login")).map((row) => row.subject)).toContain(String(user.userId));
    // A refusal about a real account outlives the ones about none.
    expect((await rows("user.login.failed")).filter((row) => row.subject === String(user.userId))).toHaveLength(1);
  }, 120_000);

  test("past the cap, refusals naming no account go first, then those naming one, then the oldest of the rest", async () => {
    const db = panel.db;
    await setSetting(db, SETTING_KEYS.activityMaxRows, "1000");
    await db.delete(schema.activity).run();
    const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    await logRows("node.changed", names("oldest", 10));
    await logRows("user.login.failed", Array(10).fill("admin"), { subject: String(admin.userId), reason: "ErrInvalidCredentials" });
    await logRows("user.login.failed", names("x", 10), { reason: "ErrInvalidCredentials" });
    await logRows("node.changed", names("n", 975));
    await pruneActivity(db);
    // 1005 rows, 5 over: five of the refusals naming no account.
    expect((await rows("user.login.failed")).filter((row) => row.subject === null)).toHaveLength(5);
    expect(await rows("node.changed")).toHaveLength(985);
    await logRows("node.changed", names("more", 20));
    await pruneActivity(db);
    // 20 over: the 5 left naming none, the 10 naming an account, then the 5 oldest of the rest.
    expect(await rows("user.login.failed")).toHaveLength(0);
    const left = (await rows("node.changed")).map((row) => JSON.parse(row.properties).name as string);
    expect(left).toHaveLength(1000);
    expect(left.slice(0, 5)).toEqual(["oldest5", "oldest6", "oldest7", "oldest8", "oldest9"]);
  }, 60_000);
});

test("a wrong password is still recorded, about its account, with the name tried and never the password", async () => {
  const user = await loginAs(panel.db, []);
  expect((await login("192.0.2.44", { email: user.email, password: "not-my-password" })).status).toBe(400);
  const failed = await rows("user.login.failed");
  expect(failed).toHaveLength(1);
  expect(failed[0]).toMatchObject({ actorType: "system", subject: String(user.userId), ip: "192.0.2.44" });
  expect(JSON.parse(failed[0]!.properties)).toEqual({ username: user.email, reason: "ErrInvalidCredentials" });
  expect(JSON.stringify(await panel.db.select().from(schema.activity).all())).not.toContain("not-my-password");
});
