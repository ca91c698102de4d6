// Attack: a holder of users.edit (not an administrator) making the panel's own invitation email
// lead to a site of theirs. Without a master URL the emailed link named the address the request
// came to, which its sender writes (Host; a trusted proxy's X-Forwarded-Host): an invitation asked
// for with `Host: attacker.example` sent the invited person a genuine email of the panel whose link
// opened attacker.example, token and all, where a copy of the invitation form reads the password
// they choose. Where the panel sends people is an administrator's to decide (the master URL
// setting, settings-changes.test.ts); a server user's invitation already needs it
// (server-users.test.ts). A users.edit holder's invitation with working email and no master URL
// is now ErrInviteNeedsMasterUrl, nothing made and nothing sent; without email they still get the
// link back to pass on themselves, and an administrator's invitation is as before.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SCOPES } from "../../core/scopes";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { everyRow } from "../helpers/every-row";
import { errorOf } from "../helpers/refusal";
import { startSmtp } from "../helpers/smtp";
import { SETTING_KEYS, writeSettings } from "../../server/services/settings";
import en from "../../locales/en.json";

let panel: TestPanel;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const email = { [SETTING_KEYS.emailProvider]: "smtp", [SETTING_KEYS.emailFrom]: "panel@example.com" };
beforeAll(async () => {
  smtp = await startSmtp();
  panel = await testPanel();
  await writeSettings(panel.db, { scopes: [SCOPES.admin] }, { ...email, [SETTING_KEYS.emailHost]: `127.0.0.1:${smtp.port}` }, { themes: ["kiln"] });
});
afterAll(async () => {
  await smtp.close();
});

const asHost = (token: string, body: Record<string, unknown>) => panel.request("/api/users", { token, host: "attacker.example", ...jsonInit("POST", body), headers: { "content-type": "application/json", origin: "http://attacker.example" } });
const mailText = () => smtp.received.map((m) => m.raw.replace(/=\r?\n/g, "")).join("\n");

test("a users.edit holder's request naming another host sends no email leading there: refused, nothing made, by the API and the form", async () => {
  const manager = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
  const before = await everyRow(panel.db);
  expect(await errorOf(await asHost(manager.token, { email: "victim@example.org" }))).toEqual({ status: 400, code: "ErrInviteNeedsMasterUrl" });
  const form = await panel.request("/adduser", { method: "POST", token: manager.token, host: "attacker.example", headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://attacker.example", ...HTML }, body: new URLSearchParams({ email: "victim@example.org" }).toString() });
  expect(form.status).toBe(400);
  expect(await form.text()).toContain(en["errors.ErrInviteNeedsMasterUrl"].split(":")[0]!.replace(/'/g, "&#x27;"));
  expect(await everyRow(panel.db)).toEqual(before);
  expect(mailText()).not.toContain("attacker.example");
});

test("control: an administrator's invitation, and with the master URL set a users.edit holder's, are emailed with the right link", async () => {
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  expect((await panel.request("/api/users", { token: admin.token, host: "panel.internal:8080", ...jsonInit("POST", { email: "first@example.org" }) })).status).toBe(201);
  expect(mailText()).toContain("http://panel.internal:8080/auth/invite?token=");
  await writeSettings(panel.db, { scopes: [SCOPES.admin] }, { [SETTING_KEYS.masterUrl]: "https://panel.example.com" }, { themes: ["kiln"] });
  const manager = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
  const res = await asHost(manager.token, { email: "second@example.org" });
  expect(res.status).toBe(201);
  expect((await res.json()).inviteUrl).toStartWith("https://panel.example.com/auth/invite?token=");
  expect(smtp.received.at(-1)!.to).toEqual(["second@example.org"]);
  expect(mailText()).not.toContain("attacker.example");
  await writeSettings(panel.db, { scopes: [SCOPES.admin] }, { [SETTING_KEYS.masterUrl]: "" }, { themes: ["kiln"] });
});

test("control: without email a users.edit holder gets the link back to pass on, and nothing is mailed", async () => {
  await writeSettings(panel.db, { scopes: [SCOPES.admin] }, { [SETTING_KEYS.emailProvider]: "none" }, { themes: ["kiln"] });
  const sent = smtp.received.length;
  const manager = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
  const res = await panel.request("/api/users", { token: manager.token, ...jsonInit("POST", { email: "third@example.org" }) });
  expect(res.status).toBe(201);
  expect(await res.json()).toMatchObject({ emailSent: false, inviteUrl: expect.stringContaining("/auth/invite?token=") });
  expect(smtp.received.length).toBe(sent);
});
