// Attack: an address that holds characters which draw nothing or move what follows. The address
// check took anything but white space and "@", so a NEL (U+0085), a bidi override or a zero-width
// space went into an account's address: lists show it (an address drawn as another person's, or
// two accounts that look alike), and mail names it (the previous address's notice of a change).
// The check now refuses what core/text/shown-label would show escaped, at every door that sets an
// address: registration, an own email change, an administrator's account or change.
import { beforeEach, expect, test } from "bun:test";
import { asc } from "drizzle-orm";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { refusals } from "../helpers/refusal";
import { SETTING_KEYS, writeSettings } from "../../server/services/settings";

const HOSTILE = ["eve\u0085to undo open evil.example@x.io", "\u202Eoi.elpmaxe@bob", "bob\u200B@corp.example", "bob@corp\u2028.example", "bob\u00AD@corp.example"];

let panel: TestPanel;
let admin: { token: string; userId: number };
let holder: { token: string; userId: number };
const accounts = () => panel.db.select({ id: schema.users.id, email: schema.users.email }).from(schema.users).orderBy(asc(schema.users.id)).all();
const { refused } = refusals(accounts);
const NOT_EMAIL = { status: 400, code: "ErrFieldNotEmail" };

beforeEach(async () => {
  panel = await testPanel();
  admin = await loginAs(panel.db, [SCOPES.admin]);
  holder = await loginAs(panel.db);
  await writeSettings(panel.db, { scopes: [SCOPES.admin] }, { [SETTING_KEYS.registrationEnabled]: "true" }, { themes: ["kiln"] });
});

test("registration with such an address is refused and makes nothing", async () => {
  for (const [i, email] of HOSTILE.entries()) {
    await refused(() => panel.request("/auth/register", jsonInit("POST", { username: `stranger${i}x`, email, password: "password123" })), NOT_EMAIL);
  }
});

test("an account's own email change to such an address is refused and changes nothing", async () => {
  for (const email of HOSTILE) {
    await refused(() => panel.request("/api/self", { token: holder.token, ...jsonInit("PUT", { password: "password123", email }) }), NOT_EMAIL);
  }
});

test("an administrator cannot make or set such an address either", async () => {
  for (const [i, email] of HOSTILE.entries()) {
    await refused(() => panel.request("/api/users", { token: admin.token, ...jsonInit("POST", { username: `made${i}x`, email, password: "password123" }) }), NOT_EMAIL);
    await refused(() => panel.request(`/api/users/${holder.userId}`, { token: admin.token, ...jsonInit("POST", { email }) }), NOT_EMAIL);
  }
});

test("plain addresses, international ones included, are still taken", async () => {
  const res = await panel.request("/api/self", { token: holder.token, ...jsonInit("PUT", { password: "password123", email: "józef.müller@bücher.example" }) });
  expect(res.status).toBeLessThan(300);
});
