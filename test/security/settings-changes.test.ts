// A holder of settings.edit (not an administrator) attacking what the settings decide: the
// master URL (invitation links, new nodes' install commands), the template repositories and the
// mod sources (where servers' files come from) are the administrators' to change, by the API and
// the form alike (so is where mail goes: test/security/email-redirect.test.ts); and the stored SMTP
// password never follows a new host, saved or only tested, even an administrator's: a relay named
// with the password field left empty is refused before it is reached. Each refusal is a catalogue
// error and changes nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SMTPServer } from "smtp-server";
import { SCOPES } from "../../core/scopes";
import { loginAs, HTML } from "../helpers/app";
import { panelWithNode, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { everyRow } from "../helpers/every-row";
import { errorOf } from "../helpers/refusal";
import { SETTING_KEYS, writeSettings } from "../../server/services/settings";

const SMTP_PASSWORD = "the-administrators-smtp-password";
let ctx: PanelWithNode;
let editor: { token: string };
let admin: { token: string };
/** Every password a relay of the attacker's was given. */
const captured: string[] = [];
const relay = new SMTPServer({
  authMethods: ["PLAIN", "LOGIN"],
  allowInsecureAuth: true,
  disabledCommands: ["STARTTLS"],
  onAuth(auth, _session, callback) {
    captured.push(String(auth.password));
    callback(null, { user: auth.username });
  },
  onData(stream, _session, callback) {
    stream.resume();
    stream.on("end", () => callback());
  },
});
let relayPort = 0;

beforeAll(async () => {
  ctx = await panelWithNode();
  editor = await loginAs(ctx.panel.db, [SCOPES.settingsEdit]);
  admin = await loginAs(ctx.panel.db, [SCOPES.admin]);
  await writeSettings(ctx.panel.db, { scopes: [SCOPES.admin] }, { [SETTING_KEYS.masterUrl]: "https://panel.example.com", [SETTING_KEYS.emailProvider]: "smtp", [SETTING_KEYS.emailHost]: "smtp.example.com:587", [SETTING_KEYS.emailFrom]: "panel@example.com", [SETTING_KEYS.emailUsername]: "mailer", [SETTING_KEYS.emailPassword]: SMTP_PASSWORD }, { themes: ["kiln"] });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  relayPort = (relay.server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => relay.close(() => resolve()));
  await ctx.node.stop();
});

const form = (path: string, fields: Record<string, string>, token = editor.token) => ctx.panel.request(path, { method: "POST", token, headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", ...HTML }, body: new URLSearchParams(fields).toString() });

describe("the administrators' settings", () => {
  test("are refused to settings.edit by every API shape, and by the form", async () => {
    const before = await everyRow(ctx.panel.db);
    const refused = { status: 403, code: "ErrMissingScope" };
    expect(await errorOf(await ctx.panel.request(`/api/settings/${SETTING_KEYS.masterUrl}`, { token: editor.token, ...jsonInit("PUT", { value: "https://attacker.example" }) }))).toEqual(refused);
    expect(await errorOf(await ctx.panel.request("/api/settings", { token: editor.token, ...jsonInit("POST", { [SETTING_KEYS.templateRepositories]: "https://attacker.example/templates" }) }))).toEqual(refused);
    expect(await errorOf(await ctx.panel.request("/api/settings", { token: editor.token, ...jsonInit("PUT", { modSources: { curseforge: { url: "https://attacker.example" } } }) }))).toEqual(refused);
    const page = await form("/settings/general", { [SETTING_KEYS.masterUrl]: "https://attacker.example", [SETTING_KEYS.companyName]: "Acme" });
    expect(page.status).toBe(403);
    expect(await everyRow(ctx.panel.db)).toEqual(before);
  });

  test("sent back unchanged (the form sends every field) they are no change: the rest saves", async () => {
    const saved = await form("/settings/general", { [SETTING_KEYS.masterUrl]: "https://panel.example.com", [SETTING_KEYS.templateRepositories]: "", [SETTING_KEYS.companyName]: "Acme", [SETTING_KEYS.defaultTheme]: "kiln" });
    expect(saved.status).toBe(303);
    expect((await (await ctx.panel.request(`/api/settings/${SETTING_KEYS.companyName}`, { token: editor.token })).json()).value).toBe("Acme");
  });
});

describe("the stored SMTP password", () => {
  const attackerRelay = () => ({ [SETTING_KEYS.emailProvider]: "smtp", [SETTING_KEYS.emailHost]: `127.0.0.1:${relayPort}`, [SETTING_KEYS.emailFrom]: "panel@example.com", [SETTING_KEYS.emailUsername]: "mailer", [SETTING_KEYS.emailPassword]: "" });

  test("is not sent to a new host by a test email, nor saved to go there later", async () => {
    const before = await everyRow(ctx.panel.db);
    const tested = await ctx.panel.request("/settings/email/test", { method: "POST", token: admin.token, headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", accept: "application/json" }, body: new URLSearchParams(attackerRelay()).toString() });
    expect(await errorOf(tested)).toEqual({ status: 400, code: "ErrFieldRequired" });
    const saved = await form("/settings/email", attackerRelay(), admin.token);
    expect(saved.status).toBe(400);
    expect(await errorOf(await ctx.panel.request("/api/settings", { token: admin.token, ...jsonInit("POST", { [SETTING_KEYS.emailHost]: `127.0.0.1:${relayPort}` }) }))).toEqual({ status: 400, code: "ErrFieldRequired" });
    expect(captured).toEqual([]);
    expect(await everyRow(ctx.panel.db)).toEqual(before);
  });

  test("control: a password typed with the new host goes there (it is the one typed)", async () => {
    const tested = await ctx.panel.request("/settings/email/test", { method: "POST", token: admin.token, headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", accept: "application/json" }, body: new URLSearchParams({ ...attackerRelay(), [SETTING_KEYS.emailPassword]: "typed-now" }).toString() });
    expect(tested.status).toBe(200);
    expect(captured).toEqual(["typed-now"]);
  });
});
