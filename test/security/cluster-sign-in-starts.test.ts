// Starting a sign-in through a provider needs no account and stores a login flow for ten minutes;
// each address may start STARTS_BURST at once and STARTS_PER_MINUTE a minute after that. The
// share was counted in each panel process's memory: behind a round-robin balancer an address got
// it once per panel (two panels, twice the rows). It is now counted in the database. Two real
// panel processes on one PostgreSQL database. Passkey sign-in challenges, the same.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count } from "drizzle-orm";
import { openDatabase, schema, type Db } from "../../db";
import { STARTS_BURST } from "../../server/services/auth/anonymous-starts";
import { freshPostgresDatabase, hasPostgres } from "../helpers/database";
import { eventually } from "../helpers/node";
import { jsonCall, killPanels, sessionAt, startPanelProcess, type PanelProcess } from "../helpers/panel-process";
import { discoveryOnlyIdp } from "../helpers/discovery-only-idp";

let db: Db;
let a: PanelProcess;
let b: PanelProcess;
const idp = discoveryOnlyIdp();

describe.if(hasPostgres())("two panels on one PostgreSQL database: sign-ins started without an account", () => {
  beforeAll(async () => {
    const url = await freshPostgresDatabase();
    db = await openDatabase(url);
    [a, b] = await Promise.all([startPanelProcess(url), startPanelProcess(url)]);
    const added = await fetch(`${a.base}/api/auth/providers`, jsonCall("POST", { id: "idp", name: "IdP", type: "oidc", issuer: idp.issuer, clientId: "kiln", clientSecret: "secret" }, await sessionAt(a.base)));
    expect(added.status).toBe(201);
    await eventually(async () => (await fetch(`${b.base}/auth/sso/idp`, { redirect: "manual" })).status !== 404, 5_000, "the provider to show on the other panel");
  }, 60_000);
  afterAll(async () => {
    await killPanels([a, b].filter(Boolean));
    await db?.$kiln.close();
    idp.stop();
  });

  test("an address starting logins in a loop through both panels gets one share, not one per panel", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < STARTS_BURST + 20; i++) statuses.push((await fetch(`${[a, b][i % 2]!.base}/auth/sso/idp`, { redirect: "manual" })).status);
    const started = statuses.filter((s) => s === 302 || s === 303).length;
    // The one start of the set-up counts too; a few may refill while the loop runs (one every two seconds).
    expect(started).toBeGreaterThanOrEqual(STARTS_BURST - 1);
    expect(started).toBeLessThan(STARTS_BURST + 5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(statuses.length - started);
    // Both panels refuse now.
    for (const panel of [a, b]) expect((await fetch(`${panel.base}/auth/sso/idp`, { redirect: "manual" })).status).toBe(429);
    expect((await db.select({ n: count() }).from(schema.ssoFlows).get())?.n).toBe(started + 1);
  });

  test("passkey sign-in challenges asked in a loop through both panels: one share, not one per panel", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < STARTS_BURST + 20; i++) {
      const panel = [a, b][i % 2]!;
      statuses.push((await fetch(`${panel.base}/auth/passkey/options`, { method: "POST", headers: { origin: panel.base } })).status);
    }
    const started = statuses.filter((s) => s === 200).length;
    expect(started).toBeGreaterThanOrEqual(STARTS_BURST);
    expect(started).toBeLessThan(STARTS_BURST + 5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(statuses.length - started);
  });
});
