// Sign-ins started without an account are bounded twice: a share per address (auth/anonymous-
// starts) and a cap on what each store holds from everyone (MAX_LIVE_FLOWS login flows,
// MAX_WAITING_CHALLENGES passkey challenges). The cap was a count, then an insert, apart: starts
// asked at the same moment (from many addresses, or through several panels on one database) all
// counted the same room and all were stored, past the cap. Here the store is filled to a few places
// short of its cap and many starts are fired at once, each from an address of its own: exactly the
// places left are taken. Runs on PostgreSQL too (KILN_TEST_ON_POSTGRES=1).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { and, count, eq, gt } from "drizzle-orm";
import { schema } from "../../db";
import { STARTS_BURST, STARTS_PER_MINUTE } from "../../server/services/auth/anonymous-starts";
import { MAX_LIVE_FLOWS } from "../../server/services/sso/flow";
import { MAX_WAITING_CHALLENGES } from "../../server/services/passkeys/challenges";
import { ssoPanel, type SsoPanel } from "../helpers/sso-panel";
import { discoveryOnlyIdp } from "../helpers/discovery-only-idp";

let rig: SsoPanel;
const idp = discoveryOnlyIdp();
const LEFT = 5;
const AT_ONCE = 40;

beforeAll(async () => {
  rig = await ssoPanel({ trustProxy: true });
  expect((await rig.addProvider({ id: "idp", name: "IdP", type: "oidc", issuer: idp.issuer, clientId: "kiln", clientSecret: "secret" })).status).toBe(201);
}, 60_000);
afterAll(() => {
  rig?.stop();
  idp.stop();
});

const from = (address: string) => ({ "x-forwarded-for": address });
const flows = async () => (await rig.panel.db.select({ n: count() }).from(schema.ssoFlows).get())?.n ?? 0;
const challenges = async () => (await rig.panel.db.select({ n: count() }).from(schema.oneTimeValues).where(and(eq(schema.oneTimeValues.kind, "passkey-challenge"), gt(schema.oneTimeValues.expiresAt, Date.now()))).get())?.n ?? 0;

async function fill<T>(rows: number, make: (i: number) => T, insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows; i += 500) await insert(Array.from({ length: Math.min(500, rows - i) }, (_, j) => make(i + j)));
}

test("SSO: logins started at once from many addresses take exactly the flows left under the cap", async () => {
  const now = Date.now();
  await fill(MAX_LIVE_FLOWS - LEFT, (i) => ({ state: `filled-${i}`, providerId: "idp", nonce: "", codeVerifier: "", next: "/", createdAt: now }), (batch) => rig.panel.db.insert(schema.ssoFlows).values(batch).run());
  const statuses = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => fetch(`${rig.base}/auth/sso/idp`, { redirect: "manual", headers: from(`198.51.100.${i + 1}`) }).then((r) => r.status)));
  expect(statuses.filter((s) => s === 302 || s === 303)).toHaveLength(LEFT);
  expect(statuses.filter((s) => s === 429)).toHaveLength(AT_ONCE - LEFT);
  expect(await flows()).toBe(MAX_LIVE_FLOWS);
}, 60_000);

test("passkeys: sign-in challenges asked at once from many addresses take exactly the places left under the cap", async () => {
  const expiresAt = Date.now() + 5 * 60_000;
  await fill(MAX_WAITING_CHALLENGES - LEFT, (i) => ({ kind: "passkey-challenge", key: `login:filled-${i}`, value: "x", expiresAt }), (batch) => rig.panel.db.insert(schema.oneTimeValues).values(batch).run());
  const statuses = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => fetch(`${rig.base}/auth/passkey/options`, { method: "POST", headers: { ...from(`203.0.113.${i + 1}`), origin: rig.base } }).then((r) => r.status)));
  expect(statuses.filter((s) => s === 200)).toHaveLength(LEFT);
  expect(statuses.filter((s) => s === 429)).toHaveLength(AT_ONCE - LEFT);
  expect(await challenges()).toBe(MAX_WAITING_CHALLENGES);
}, 60_000);

test("one address's starts fired at once take its share and no more", async () => {
  await rig.panel.db.delete(schema.oneTimeValues).where(eq(schema.oneTimeValues.kind, "passkey-challenge")).run();
  const began = Date.now();
  const statuses = await Promise.all(Array.from({ length: STARTS_BURST + 30 }, () => fetch(`${rig.base}/auth/passkey/options`, { method: "POST", headers: { ...from("192.0.2.44"), origin: rig.base } }).then((r) => r.status)));
  // The share refills by STARTS_PER_MINUTE while the burst is served.
  const refilled = Math.floor(((Date.now() - began) / 60_000) * STARTS_PER_MINUTE);
  const started = statuses.filter((s) => s === 200).length;
  expect(started).toBeGreaterThanOrEqual(STARTS_BURST);
  expect(started).toBeLessThanOrEqual(STARTS_BURST + refilled);
  expect(await challenges()).toBe(started);
}, 60_000);
