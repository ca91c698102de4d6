// Attack: a holder of settings.edit (not an administrator) writing their own lines into the
// panel's invitation emails. The company name is the brand every invitation names ("You have been
// invited to {brand}.") above the link, and it took line breaks: "Acme\n\nThis link has expired,
// accept at https://evil.example/i" put a paragraph and a link of the editor's into every
// invitation to every address, in the panel's own mail, above the real link (and into the
// subject). Where mail goes and the master URL are an administrator's for this reason
// (email-redirect.test.ts). The brand is a name on one line: line breaks and other control
// characters are ErrFieldHasControlCharacters, by the API and the settings form, and nothing changes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SCOPES } from "../../core/scopes";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { everyRow } from "../helpers/every-row";
import { errorOf } from "../helpers/refusal";
import { startSmtp } from "../helpers/smtp";
import { SETTING_KEYS, writeSettings } from "../../server/services/settings";

let panel: TestPanel;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  panel = await testPanel();
  await writeSettings(panel.db, { scopes: [SCOPES.admin] }, { [SETTING_KEYS.masterUrl]: "https://panel.example.com", [SETTING_KEYS.emailProvider]: "smtp", [SETTING_KEYS.emailHost]: `127.0.0.1:${smtp.port}`, [SETTING_KEYS.emailFrom]: "panel@example.com", [SETTING_KEYS.companyName]: "Acme" }, { themes: ["kiln"] });
});
afterAll(async () => {
  await smtp.close();
});

const INJECTED = ["Acme\n\nThis link has expired: accept at https://evil.example/i", "Acme\r\nReply-To: thief@evil.example", "Acme\u2028https://evil.example/i", "Acme\u0085https://evil.example/i", "Acme\u001b[2J"];

test("a company name with line breaks or control characters is refused, by the API and the form, and the next invitation carries none", async () => {
  const editor = await loginAs(panel.db, [SCOPES.settingsEdit]);
  const before = await everyRow(panel.db);
  for (const name of INJECTED) {
    expect(await errorOf(await panel.request("/api/settings", { token: editor.token, ...jsonInit("POST", { [SETTING_KEYS.companyName]: name }) }))).toEqual({ status: 400, code: "ErrFieldHasControlCharacters" });
    const form = await panel.request("/settings/general", { method: "POST", token: editor.token, headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", ...HTML }, body: new URLSearchParams({ [SETTING_KEYS.companyName]: name, [SETTING_KEYS.masterUrl]: "https://panel.example.com", [SETTING_KEYS.templateRepositories]: "", [SETTING_KEYS.defaultTheme]: "kiln" }).toString() });
    expect(form.status).toBe(400);
    expect(await form.text()).toContain("must not contain line breaks or other control characters");
  }
  expect(await everyRow(panel.db)).toEqual(before);

  const admin = await loginAs(panel.db, [SCOPES.admin]);
  expect((await panel.request("/api/users", { token: admin.token, ...jsonInit("POST", { email: "newcomer@example.com" }) })).status).toBe(201);
  const mail = smtp.received.at(-1)!;
  expect(mail.to).toEqual(["newcomer@example.com"]);
  expect(mail.raw).not.toContain("evil.example");
  expect(mail.raw).toContain("Subject: You have been invited to Acme\r\n");
});

test("control: a name in any script, with spaces and punctuation, is kept", async () => {
  const editor = await loginAs(panel.db, [SCOPES.settingsEdit]);
  expect((await panel.request("/api/settings", { token: editor.token, ...jsonInit("POST", { [SETTING_KEYS.companyName]: "Café Größe · 游戏 (EU)" }) })).status).toBeLessThan(300);
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  expect((await panel.request("/api/users", { token: admin.token, ...jsonInit("POST", { email: "second@example.com" }) })).status).toBe(201);
  expect(smtp.received.at(-1)!.raw).toContain("Caf");
});
