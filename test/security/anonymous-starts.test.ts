// Starting a sign-in needs no account: GET /auth/sso/{provider} stores a login flow for ten
// minutes, POST /auth/passkey/options a challenge for five. A loop from one address filled the
// database with rows nobody would use. Each address may now start STARTS_BURST at once and
// STARTS_PER_MINUTE a minute after that; past it 429 ErrTooManyRequests and nothing stored, while
// another address still starts its sign-in. (The panel is told to trust X-Forwarded-For here, as
// behind a reverse proxy, so two addresses can be played from one machine.)
import { afterAll, beforeAll, expect, test } from "bun:test";
import { count } from "drizzle-orm";
import { schema } from "../../db";
import { STARTS_BURST } from "../../server/services/auth/anonymous-starts";
import { ssoPanel, type SsoPanel } from "../helpers/sso-panel";
import { discoveryOnlyIdp } from "../helpers/discovery-only-idp";

let rig: SsoPanel;
const idp = discoveryOnlyIdp();

beforeAll(async () => {
  rig = await ssoPanel({ trustProxy: true });
  expect((await rig.addProvider({ id: "idp", name: "IdP", type: "oidc", issuer: idp.issuer, clientId: "kiln", clientSecret: "secret" })).status).toBe(201);
});
afterAll(() => {
  rig?.stop();
  idp.stop();
});

const rows = async (table: typeof schema.ssoFlows | typeof schema.oneTimeValues) => (await rig.panel.db.select({ n: count() }).from(table).get())?.n ?? 0;
const from = (address: string) => ({ "x-forwarded-for": address });

test("SSO: an address starting logins in a loop is refused past its share, nothing stored; another address still starts one", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < STARTS_BURST + 15; i++) statuses.push((await fetch(`${rig.base}/auth/sso/idp`, { redirect: "manual", headers: from("203.0.113.7") })).status);
  const started = statuses.filter((s) => s === 302 || s === 303).length;
  // A few may refill while the loop runs (a start every two seconds).
  expect(started).toBeGreaterThanOrEqual(STARTS_BURST);
  expect(started).toBeLessThan(STARTS_BURST + 5);
  expect(statuses.filter((s) => s === 429).length).toBe(STARTS_BURST + 15 - started);
  expect(await rows(schema.ssoFlows)).toBe(started);
  const refused = await fetch(`${rig.base}/auth/sso/idp`, { redirect: "manual", headers: from("203.0.113.7") });
  expect(refused.status).toBe(429);
  expect(refused.headers.get("location")).toBeNull();
  expect([302, 303]).toContain((await fetch(`${rig.base}/auth/sso/idp`, { redirect: "manual", headers: from("198.51.100.9") })).status);
});

test("passkeys: sign-in challenges asked in a loop are refused past the share, no challenge or cookie kept", async () => {
  const before = await rows(schema.oneTimeValues);
  let answered = 0;
  let refusal: Response | undefined;
  for (let i = 0; i < STARTS_BURST + 10; i++) {
    const res = await fetch(`${rig.base}/auth/passkey/options`, { method: "POST", headers: { ...from("203.0.113.8"), origin: rig.base } });
    if (res.status === 200) answered++;
    else refusal = res;
  }
  expect(answered).toBeGreaterThanOrEqual(STARTS_BURST);
  expect(answered).toBeLessThan(STARTS_BURST + 5);
  expect(refusal?.status).toBe(429);
  expect((await refusal!.json()).error.code).toBe("ErrTooManyRequests");
  expect(refusal!.headers.get("set-cookie")).toBeNull();
  // The challenges, and the address's one row of its share (kept in the database for every panel).
  expect((await rows(schema.oneTimeValues)) - before).toBe(answered + 1);
});

test("an IPv6 subscriber's /64 is one address: a loop that changes its address within the network each time gets one share", async () => {
  // One subscriber is given a whole /64 (registration-quota's network): counted per address, each of
  // its 2^64 addresses had a share of its own, so one visitor took the panel-wide room every other
  // visitor's sign-in needs, and wrote a row of a share for each start.
  const before = await rows(schema.oneTimeValues);
  const address = (i: number) => `2001:db8:77:5:${(i + 1).toString(16)}::${(i * 7 + 3).toString(16)}`;
  let answered = 0;
  for (let i = 0; i < STARTS_BURST + 10; i++) {
    const res = await fetch(`${rig.base}/auth/passkey/options`, { method: "POST", headers: { ...from(address(i)), origin: rig.base } });
    if (res.status === 200) answered++;
    else expect((await res.json()).error.code).toBe("ErrTooManyRequests");
  }
  expect(answered).toBeGreaterThanOrEqual(STARTS_BURST);
  expect(answered).toBeLessThan(STARTS_BURST + 5);
  expect((await rows(schema.oneTimeValues)) - before).toBe(answered + 1);
  // The next /64 is another subscriber's: it still starts its sign-in.
  expect((await fetch(`${rig.base}/auth/passkey/options`, { method: "POST", headers: { ...from("2001:db8:77:6::1"), origin: rig.base } })).status).toBe(200);
});
