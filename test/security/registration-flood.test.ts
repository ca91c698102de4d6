// Attack: a stranger registering in a loop while self-registration is open. Each registration is
// an account row and a session; nothing bounded them, so one machine could fill the accounts table
// (and test, one email after another, which addresses already had accounts). Now one address (an
// IPv6 address by its /64) registers at most REGISTRATIONS_PER_ADDRESS times in 24 hours and the
// whole panel REGISTRATIONS_PER_PANEL: past either, 429 ErrTooManyRequests and no account.
import { beforeEach, describe, expect, test } from "bun:test";
import { count } from "drizzle-orm";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { testPanel, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { errorOf } from "../helpers/refusal";
import { SETTING_KEYS, writeSettings } from "../../server/services/settings";
import { countRegistration, REGISTRATIONS_PER_ADDRESS, REGISTRATIONS_PER_PANEL } from "../../server/services/users/registration-quota";

let panel: TestPanel;
let made = 0;
beforeEach(async () => {
  // The address is the proxy's word for it, as behind a reverse proxy.
  panel = await testPanel({ trustProxy: true });
  await writeSettings(panel.db, { scopes: [SCOPES.admin] }, { [SETTING_KEYS.registrationEnabled]: "true" }, { themes: ["kiln"] });
});

const register = (address: string, email = `bot${++made}@example.com`) =>
  panel.request("/auth/register", { ...jsonInit("POST", { username: `bot-${made}-x`, email, password: "password123" }), headers: { "content-type": "application/json", "x-forwarded-for": address } });
const accounts = async () => (await panel.db.select({ n: count() }).from(schema.users).get())!.n;

describe("a registration loop", () => {
  test("one address makes its share of accounts, then is refused; another address is not", async () => {
    for (let i = 0; i < REGISTRATIONS_PER_ADDRESS; i++) expect((await register("203.0.113.7")).status).toBe(200);
    const before = await accounts();
    expect(await errorOf(await register("203.0.113.7"))).toEqual({ status: 429, code: "ErrTooManyRequests" });
    expect(await accounts()).toBe(before);
    expect((await register("203.0.113.8")).status).toBe(200);
  }, 30_000);

  test("a clash counts too: guessing which emails have accounts costs a place each", async () => {
    const taken = "owner@example.com";
    expect((await register("203.0.113.9", taken)).status).toBe(200);
    for (let i = 1; i < REGISTRATIONS_PER_ADDRESS; i++) expect(await errorOf(await register("203.0.113.9", taken))).toEqual({ status: 400, code: "ErrSavingInviteduser" });
    expect(await errorOf(await register("203.0.113.9"))).toEqual({ status: 429, code: "ErrTooManyRequests" });
  }, 30_000);

  test("every address of one IPv6 /64 is one address", async () => {
    for (let i = 0; i < REGISTRATIONS_PER_ADDRESS; i++) expect((await register(`2001:db8:1:2::${(i + 1).toString(16)}`)).status).toBe(200);
    expect(await errorOf(await register("2001:db8:1:2:ffff:ffff:ffff:ffff"))).toEqual({ status: 429, code: "ErrTooManyRequests" });
    expect((await register("2001:db8:1:3::1")).status).toBe(200);
  }, 30_000);

  test("many addresses together stop at the panel's bound", async () => {
    // The panel's count filled from as many addresses as a botnet has (counted directly: hashing
    // that many passwords would be the test's whole time).
    for (let i = 0; i < REGISTRATIONS_PER_PANEL; i++) await countRegistration(panel.db, `198.51.${i >> 8}.${i & 255}`);
    const before = await accounts();
    expect(await errorOf(await register("192.0.2.200"))).toEqual({ status: 429, code: "ErrTooManyRequests" });
    expect(await accounts()).toBe(before);
  }, 30_000);
});
