// Attack: a holder of settings.edit (not an administrator) sending the panel's mail through a
// relay or provider account of their own. Every invitation link goes out by email, and whoever
// reads one takes the invited account (and what the inviter gave it: a server user's flags, the
// scopes an administrator set before it was accepted). Before, the editor could name any SMTP host,
// or switch to Mailgun or Mailjet with their own key, and read every link the panel sent after;
// the test email let them try hosts on the panel's network besides. Where mail goes (the provider,
// the SMTP host and credentials, the Mailgun domain, the providers' keys) is now an
// administrator's to change, like the master URL: ErrMissingScope, saved or only tested, and
// nothing changes. The sender's address stays the editor's to set.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SCOPES } from "../../core/scopes";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { everyRow } from "../helpers/every-row";
import { errorOf } from "../helpers/refusal";
import { startSmtp } from "../helpers/smtp";
import { SETTING_KEYS, writeSettings } from "../../server/services/settings";

let panel: TestPanel;
let theirs: Awaited<ReturnType<typeof startSmtp>>;
let ours: Awaited<ReturnType<typeof startSmtp>>;
let editor: { token: string };
let admin: { token: string };

beforeAll(async () => {
  [ours, theirs] = await Promise.all([startSmtp(), startSmtp()]);
  panel = await testPanel();
  await writeSettings(panel.db, { scopes: [SCOPES.admin] }, { [SETTING_KEYS.masterUrl]: "https://panel.example.com", [SETTING_KEYS.emailProvider]: "smtp", [SETTING_KEYS.emailHost]: `127.0.0.1:${ours.port}`, [SETTING_KEYS.emailFrom]: "panel@example.com", [SETTING_KEYS.emailKey]: "stored-key" }, { themes: ["kiln"] });
  editor = await loginAs(panel.db, [SCOPES.settingsEdit]);
  admin = await loginAs(panel.db, [SCOPES.admin]);
});
afterAll(async () => {
  await Promise.all([ours.close(), theirs.close()]);
});

const post = (path: string, fields: Record<string, string>, accept = HTML) =>
  panel.request(path, { method: "POST", token: editor.token, headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", ...accept }, body: new URLSearchParams(fields).toString() });
const theirRelay = () => ({ [SETTING_KEYS.emailProvider]: "smtp", [SETTING_KEYS.emailHost]: `127.0.0.1:${theirs.port}`, [SETTING_KEYS.emailFrom]: "panel@example.com", [SETTING_KEYS.emailUsername]: "", [SETTING_KEYS.emailPassword]: "typed-by-them" });
const REFUSED = { status: 403, code: "ErrMissingScope" };

describe("a settings editor redirecting the panel's mail", () => {
  test("to their own SMTP relay: refused by the API, the form and the test email; invitations still go to ours", async () => {
    const before = await everyRow(panel.db);
    expect(await errorOf(await panel.request("/api/settings", { token: editor.token, ...jsonInit("POST", theirRelay()) }))).toEqual(REFUSED);
    expect(await errorOf(await panel.request(`/api/settings/${SETTING_KEYS.emailHost}`, { token: editor.token, ...jsonInit("PUT", { value: `127.0.0.1:${theirs.port}` }) }))).toEqual(REFUSED);
    expect((await post("/settings/email", theirRelay())).status).toBe(403);
    expect(await errorOf(await post("/settings/email/test", theirRelay(), { accept: "application/json" }))).toEqual(REFUSED);
    expect(await everyRow(panel.db)).toEqual(before);
    // The administrator's next invitation, link and all, goes where the administrator set.
    const invited = await panel.request("/api/users", { token: admin.token, ...jsonInit("POST", { email: "newcomer@example.com" }) });
    expect(invited.status).toBe(201);
    expect(theirs.received).toEqual([]);
    expect(ours.received.at(-1)!.to).toEqual(["newcomer@example.com"]);
  });

  test("to a provider account of their own (Mailgun, Mailjet): refused", async () => {
    const before = await everyRow(panel.db);
    expect(await errorOf(await panel.request("/api/settings", { token: editor.token, ...jsonInit("POST", { [SETTING_KEYS.emailProvider]: "mailgun", [SETTING_KEYS.emailDomain]: "mg.attacker.example", [SETTING_KEYS.emailKey]: "their-key" }) }))).toEqual(REFUSED);
    expect(await errorOf(await panel.request("/api/settings", { token: editor.token, ...jsonInit("POST", { [SETTING_KEYS.emailProvider]: "mailjet", [SETTING_KEYS.emailKey]: "their-key", [SETTING_KEYS.emailPassword]: "their-secret" }) }))).toEqual(REFUSED);
    // Nor is the stored key's value told by a refusal that differs: sending it is refused as well.
    expect(await errorOf(await panel.request("/api/settings", { token: editor.token, ...jsonInit("POST", { [SETTING_KEYS.emailKey]: "stored-key" }) }))).toEqual(REFUSED);
    expect(await everyRow(panel.db)).toEqual(before);
  });

  test("the editor's email tab shows where mail goes without letting it be changed", async () => {
    const page = await (await panel.request("/settings?tab=email", { token: editor.token, headers: HTML })).text();
    const tag = (name: string) => new RegExp(`<(?:input|select)[^>]*name="${name.replaceAll(".", "\\.")}"[^>]*>`).exec(page)?.[0] ?? "";
    expect(tag("panel.email.provider")).toContain("disabled");
    for (const name of ["panel.email.host", "panel.email.username", "panel.email.domain"]) expect(tag(name).toLowerCase()).toContain("readonly");
    for (const name of ["panel.email.key", "panel.email.password"]) expect(tag(name)).toContain("disabled");
    expect(tag("panel.email.from")).not.toMatch(/readonly|disabled/i);
  });

  test("control: the form sent back as it is (secrets empty) saves a new sender address, and the test email uses our relay", async () => {
    const asStored = { [SETTING_KEYS.emailProvider]: "smtp", [SETTING_KEYS.emailHost]: `127.0.0.1:${ours.port}`, [SETTING_KEYS.emailUsername]: "", [SETTING_KEYS.emailDomain]: "", [SETTING_KEYS.emailKey]: "", [SETTING_KEYS.emailPassword]: "" };
    expect((await post("/settings/email", { ...asStored, [SETTING_KEYS.emailFrom]: "kiln@example.com" })).status).toBe(303);
    expect((await (await panel.request(`/api/settings/${SETTING_KEYS.emailFrom}`, { token: editor.token })).json()).value).toBe("kiln@example.com");
    const sent = ours.received.length;
    expect((await post("/settings/email/test", { ...asStored, [SETTING_KEYS.emailFrom]: "kiln@example.com" }, { accept: "application/json" })).status).toBe(200);
    expect(ours.received.length).toBe(sent + 1);
    expect(theirs.received).toEqual([]);
  });
});
