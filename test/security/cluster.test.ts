// Attacks on what several panel processes share, on both engines: the health answers anyone may
// ask, the short-lived values one process writes and another reads (a passkey challenge, an
// import's notes, failed-login counts), the leases that keep a job in one process, and the
// `kiln db` command's answer when it cannot reach a database. Two panel processes are two
// services on one database here, as they are in production. On PostgreSQL: a setting (the metrics
// token) rotated through one panel while the other's change feed is cut is not served from the
// other's memory (a feed that cannot bring news keeps nothing, as db/kept says).
import { describe, expect, setSystemTime, test } from "bun:test";
import pg from "pg";
import { eq } from "drizzle-orm";
import { KilnError } from "../../core/errors";
import { openDatabase, schema, type Db } from "../../db";
import { LoginThrottle, throttleKeys, isCredentialFailure } from "../../server/services/auth/throttle";
import { ChallengeStore } from "../../server/services/passkeys/challenges";
import { stashImportNotes, stashedImportNotes } from "../../server/services/templates/import-notes-stash";
import { leaseHolder, takeLease, LEASE_MS } from "../../server/services/cluster/leases";
import { checkOtp, confirmOtpEnrolment, startOtpEnrolment } from "../../server/services/auth/totp";
import { Secret, TOTP } from "otpauth";
import { loginAs, testPanel } from "../helpers/app";
import { addNodeRow } from "../helpers/panel-node";
import { errorOf } from "../helpers/refusal";
import { SCOPES } from "../../core/scopes";
import { freshPostgresDatabase, hasPostgres, POSTGRES_URL } from "../helpers/database";
import { eventually } from "../helpers/node";
import { setSetting, SETTING_KEYS } from "../../server/services/settings";
import { checkMetricsToken } from "../../server/metrics";
import { runKiln, tempDir } from "../helpers/process";

const engines: [string, () => Promise<Db>][] = [["SQLite", () => openDatabase(":memory:")]];
if (hasPostgres()) engines.push(["PostgreSQL", async () => openDatabase(await freshPostgresDatabase())]);

const wrong = () => Promise.reject(new KilnError("ErrInvalidCredentials"));

describe.each(engines)("%s", (_, open) => {
  test("a passkey challenge written by one panel is taken once by another, never twice, never after it expires", async () => {
    const db = await open();
    let now = 1_000_000;
    const [here, there] = [new ChallengeStore(db, () => now), new ChallengeStore(db, () => now)];
    await here.put("login:abc", "challenge-1");
    expect(await there.take("login:abc")).toBe("challenge-1");
    // A replayed answer finds nothing, on either panel.
    expect(await here.take("login:abc")).toBeUndefined();
    expect(await there.take("login:abc")).toBeUndefined();
    await here.put("login:late", "challenge-2");
    now += 5 * 60_000 + 1;
    expect(await there.take("login:late")).toBeUndefined();
    await db.$kiln.close();
  });

  test("failed logins counted by one panel lock the account on the other", async () => {
    const db = await open();
    const policy = { windowMs: 60_000, slowAfter: 100, lockAfter: 3, lockMs: 60_000, delayStepMs: 0, maxDelayMs: 0 };
    const [here, there] = [new LoginThrottle(policy).storedIn(db), new LoginThrottle(policy).storedIn(db)];
    const keys = throttleKeys("victim@example.com", "203.0.113.9");
    for (const panel of [here, there, here]) await expect(panel.check(keys, wrong, isCredentialFailure)).rejects.toMatchObject({ code: "ErrInvalidCredentials" });
    // The right password too is refused now, on both, without being checked.
    let checked = false;
    for (const panel of [there, here]) await expect(panel.check(keys, async () => (checked = true), isCredentialFailure)).rejects.toMatchObject({ code: "ErrTooManyRequests" });
    expect(checked).toBe(false);
    await db.$kiln.close();
  });

  test("an import's notes are found only under their own token and for their own template", async () => {
    const db = await open();
    const token = await stashImportNotes(db, { id: "mine", format: "v3", notes: [] });
    expect(await stashedImportNotes(db, token, "mine")).toEqual({ id: "mine", format: "v3", notes: [] });
    expect(await stashedImportNotes(db, token, "someone-elses")).toBeUndefined();
    expect(await stashedImportNotes(db, `${token}x`, "mine")).toBeUndefined();
    expect(await stashedImportNotes(db, "' or 1=1 --", "mine")).toBeUndefined();
    await db.$kiln.close();
  });

  test("a lease held by one panel cannot be taken by another until it expires", async () => {
    const db = await open();
    const now = Date.now();
    expect(await takeLease(db, "webhooks", "panel-a", now)).toBe(true);
    expect(await takeLease(db, "webhooks", "panel-b", now + 1)).toBe(false);
    expect(await takeLease(db, "webhooks", "panel-b", now + LEASE_MS - 1)).toBe(false);
    expect(await leaseHolder(db, "webhooks", now + 2)).toBe("panel-a");
    // The holder renews; another takes it only once a renewal is missed for LEASE_MS.
    expect(await takeLease(db, "webhooks", "panel-a", now + 1000)).toBe(true);
    expect(await takeLease(db, "webhooks", "panel-b", now + LEASE_MS + 500)).toBe(false);
    expect(await takeLease(db, "webhooks", "panel-b", now + 1000 + LEASE_MS + 1)).toBe(true);
    expect(await takeLease(db, "webhooks", "panel-a", now + 1000 + LEASE_MS + 2)).toBe(false);
    await db.$kiln.close();
  });
});

describe.if(hasPostgres())("PostgreSQL, a panel whose clock is wrong", () => {
  // Each panel machine has its own clock: one a minute ahead would find every lease expired and
  // take it while its holder still renews (a job run twice). Leases are judged by the database's clock.
  test("a lease held by one panel is not taken by another whose clock runs a minute ahead", async () => {
    const db = await openDatabase(await freshPostgresDatabase());
    expect(await takeLease(db, "webhooks", "panel-a")).toBe(true);
    setSystemTime(new Date(Date.now() + 60_000));
    try {
      expect(await takeLease(db, "webhooks", "panel-b")).toBe(false);
      expect(await leaseHolder(db, "webhooks")).toBe("panel-a");
    } finally {
      setSystemTime();
    }
    await db.$kiln.close();
  });

  test("an account locked through one panel stays locked on another whose clock runs past the lock", async () => {
    const db = await openDatabase(await freshPostgresDatabase());
    const policy = { windowMs: 60_000, slowAfter: 100, lockAfter: 3, lockMs: 60_000, delayStepMs: 0, maxDelayMs: 0 };
    const [here, there] = [new LoginThrottle(policy).storedIn(db), new LoginThrottle(policy).storedIn(db)];
    const keys = throttleKeys("victim@example.com", "203.0.113.9");
    for (let i = 0; i < 3; i++) await expect(here.check(keys, wrong, isCredentialFailure)).rejects.toMatchObject({ code: "ErrInvalidCredentials" });
    setSystemTime(new Date(Date.now() + 2 * 60_000));
    try {
      let checked = false;
      await expect(there.check(keys, async () => (checked = true), isCredentialFailure)).rejects.toMatchObject({ code: "ErrTooManyRequests" });
      expect(checked).toBe(false);
    } finally {
      setSystemTime();
    }
    await db.$kiln.close();
  });
});

describe.if(hasPostgres())("PostgreSQL, a panel whose change feed is cut", () => {
  test("a metrics token rotated through another panel is refused at once, not served from memory until the feed is back", async () => {
    const url = new URL(await freshPostgresDatabase());
    const cutOne = new URL(url);
    cutOne.searchParams.set("application_name", "kiln_cut_settings");
    const [here, there] = [await openDatabase(cutOne.toString()), await openDatabase(url.toString())];
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    try {
      const accepts = (db: Db, token: string) => checkMetricsToken(db, `Bearer ${token}`).then(() => true, () => false);
      await setSetting(there, SETTING_KEYS.metricsToken, "leaked-metrics-token-0123");
      await eventually(() => accepts(here, "leaked-metrics-token-0123"), 2_000, "the token to reach the other panel");
      // The feed's connection is cut (a database restart, a network blip): the panel reconnects within a second.
      await admin.connect();
      const cut = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'kiln_cut_settings' and query like 'listen %'");
      expect(cut.rowCount).toBe(1);
      await eventually(() => Number.isNaN(here.$kiln.announcedGeneration()), 2_000, "the feed to be seen cut");
      expect(await accepts(here, "leaked-metrics-token-0123")).toBe(true);
      // Rotated through the other panel while this one hears nothing. Written as another process
      // writes it (the row, then the announcement): setSetting here would also move this
      // process's own count of settings writes, which another process's write never does.
      await there.update(schema.settings).set({ value: "rotated-metrics-token-4567" }).where(eq(schema.settings.key, SETTING_KEYS.metricsToken)).run();
      await there.$kiln.announce("settings");
      expect(await accepts(here, "leaked-metrics-token-0123")).toBe(false);
      expect(await accepts(here, "rotated-metrics-token-4567")).toBe(true);
      // Still cut: the refusal above came from the database, not from the feed's return.
      expect(Number.isNaN(here.$kiln.announcedGeneration())).toBe(true);
    } finally {
      await admin.end().catch(() => undefined);
      await here.$kiln.close();
      await there.$kiln.close();
    }
  });
});

test("a server another panel process is working on cannot be deleted through this one; once it lets go, it can be", async () => {
  const panel = await testPanel();
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  const nodeId = await addNodeRow(panel, "elsewhere", 9, "a-secret-of-some-length");
  await panel.db.insert(schema.servers).values({ id: "0badcafe", name: "busy", nodeId, createdAt: new Date() }).run();
  await panel.db.insert(schema.leases).values({ name: "server:0badcafe", holder: "other-host:1:abcdef", expiresAt: Date.now() + LEASE_MS }).run();
  const res = await panel.request("/api/servers/0badcafe", { method: "DELETE", token: admin.token });
  expect(await errorOf(res)).toEqual({ status: 404, code: "ErrNotFound" });
  expect((await panel.db.select().from(schema.servers).all()).map((row) => [row.id, row.state])).toEqual([["0badcafe", "ready"]]);
  await panel.db.delete(schema.leases).run();
  // Let go: the deletion is tried (the node at a dead address does not answer, so the server stays, ready).
  const again = await panel.request("/api/servers/0badcafe", { method: "DELETE", token: admin.token });
  expect(await errorOf(again)).toEqual({ status: 503, code: "ErrServiceNotAvailable" });
  expect(await panel.db.select().from(schema.leases).all()).toEqual([]);
});

test("/healthz and /readyz tell an anonymous caller nothing but the state; a database that does not answer is a 503 without details", async () => {
  const panel = await testPanel();
  const health = await panel.request("/healthz");
  expect(await health.json()).toEqual({ status: "ok" });
  const ready = (await (await panel.request("/readyz")).json()) as Record<string, unknown>;
  expect(Object.keys(ready).sort()).toEqual(["database", "panel", "ready"]);
  await panel.db.$kiln.close();
  const down = await panel.request("/readyz");
  expect(down.status).toBe(503);
  const text = await down.text();
  expect(JSON.parse(text)).toMatchObject({ ready: false, reason: "database" });
  expect(text).not.toMatch(/\/tmp|\/work|\/home|Error|at /);
  // The process answers while its database does not.
  expect((await panel.request("/healthz")).status).toBe(200);
});

test("kiln db migrate-to never prints a database password, even when the connection fails", () => {
  const secret = "s3cret-Passw0rd";
  const run = runKiln(["db", "migrate-to", `postgres://kiln:${secret}@127.0.0.1:1/kiln`], { KILN_DATA: tempDir("kiln-dbcli-") });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("kiln db:");
  expect(run.stdout + run.stderr).not.toContain(secret);
});

test("one two-factor code sent twice at once is accepted once (the time step is burnt in one conditional write)", async () => {
  const panel = await testPanel();
  const user = await loginAs(panel.db, []);
  const secret = await startOtpEnrolment(panel.db, user.userId, "Kiln");
  const code = new TOTP({ secret: Secret.fromBase32(secret.secret) }).generate();
  await confirmOtpEnrolment(panel.db, user.userId, code, "password123", user.token);
  const next = new TOTP({ secret: Secret.fromBase32(secret.secret) }).generate({ timestamp: Date.now() + 30_000 });
  const outcomes = await Promise.all(Array.from({ length: 8 }, () => checkOtp(panel.db, user.userId, next, Date.now() + 30_000)));
  expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
  expect(outcomes.filter((o) => o === "replayed")).toHaveLength(7);
});
