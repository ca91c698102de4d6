// Attack: a settings editor (or a stolen administrator's session) storing megabytes in a setting.
// Every setting is kept in memory by every panel process and read for pages and mail; the email
// sender, host, username, domain, key and password and the CurseForge key took any printable text
// up to the 16 MiB body limit. Each is now at most MAX_SETTING_TEXT characters (ErrFieldTooLarge,
// nothing stored), more than any real address, host name or key.
import { beforeEach, describe, expect, test } from "bun:test";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { refusals } from "../helpers/refusal";
import { MAX_SETTING_TEXT, SETTING_KEYS } from "../../server/services/settings";

let panel: TestPanel;
let admin: { token: string };
let editor: { token: string };
beforeEach(async () => {
  panel = await testPanel();
  admin = await loginAs(panel.db, [SCOPES.admin]);
  editor = await loginAs(panel.db, [SCOPES.settingsEdit]);
});

const snapshot = async () => await panel.db.select().from(schema.settings).all();
const HUGE = "a".repeat(1024 * 1024);
const TEXT_KEYS = [SETTING_KEYS.emailFrom, SETTING_KEYS.emailHost, SETTING_KEYS.emailUsername, SETTING_KEYS.emailDomain, SETTING_KEYS.emailKey, SETTING_KEYS.emailPassword, SETTING_KEYS.curseforgeKey];

describe("a setting of megabytes", () => {
  test.each(TEXT_KEYS)("%s: refused, nothing stored", async (key) => {
    const { refused } = refusals(snapshot);
    await refused(() => panel.request("/api/settings", { token: admin.token, ...jsonInit("POST", { [key]: HUGE }) }), { status: 400, code: "ErrFieldTooLarge" });
    await refused(() => panel.request("/api/settings", { token: admin.token, ...jsonInit("POST", { [key]: "b".repeat(MAX_SETTING_TEXT + 1) }) }), { status: 400, code: "ErrFieldTooLarge" });
  });

  test("the sender's address an editor sets, by the form too", async () => {
    const { refused } = refusals(snapshot);
    await refused(() => panel.request("/api/settings", { token: editor.token, ...jsonInit("POST", { [SETTING_KEYS.emailFrom]: `${HUGE}@example.com` }) }), { status: 400, code: "ErrFieldTooLarge" });
    const form = await panel.request("/settings/email", { method: "POST", token: editor.token, headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", accept: "text/html" }, body: new URLSearchParams({ [SETTING_KEYS.emailFrom]: HUGE }).toString() });
    expect(form.status).toBe(400);
    expect(await snapshot()).toEqual([]);
  });

  test("control: a value at the bound is stored", async () => {
    const value = "c".repeat(MAX_SETTING_TEXT);
    expect((await panel.request("/api/settings", { token: admin.token, ...jsonInit("POST", { [SETTING_KEYS.emailDomain]: value }) })).status).toBe(204);
    expect((await panel.request(`/api/settings/${SETTING_KEYS.emailDomain}`, { token: admin.token })).status).toBe(200);
  });
});
