// The settings form's test email sends with values from the request, so it is
// attacked here: only settings editors may use it, only from the panel's own pages; a header
// injection, a shell expression or an unknown provider in the form is refused with a catalogue
// error or fails as a send; and nothing is ever stored, nothing reaches a relay it should not,
// no answer carries a stack or a host path.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { refusals } from "../helpers/refusal";
import { startSmtp } from "../helpers/smtp";

let panel: TestPanel;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp.close();
});
beforeEach(async () => {
  panel = await testPanel();
});

const JSON_ANSWER = { accept: "application/json", "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" };
const test_ = (token: string, form: Record<string, string>, headers: Record<string, string> = JSON_ANSWER) =>
  panel.request("/settings/email/test", { method: "POST", token, headers, body: new URLSearchParams(form).toString() });
/** Every stored setting and every message the relay got: what no attack may change. */
const snapshot = async () => ({ settings: await panel.db.select().from(schema.settings).all(), mail: smtp.received.length });
const relay = () => ({ "panel.email.provider": "smtp", "panel.email.from": "panel@example.com", "panel.email.host": `127.0.0.1:${smtp.port}` });

describe("the settings test email under attack", () => {
  test("someone without the settings permission is refused, and nothing is sent", async () => {
    const { refused } = refusals(snapshot);
    const viewer = await loginAs(panel.db, [SCOPES.serversView, SCOPES.usersView, SCOPES.usersEdit]);
    await refused(() => test_(viewer.token, relay()), { status: 403, code: "ErrMissingScope" });
  });

  test("a post from another site is refused, even for an administrator", async () => {
    const { refused } = refusals(snapshot);
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    await refused(() => test_(admin.token, relay(), { ...JSON_ANSWER, origin: "https://evil.example" }), { status: 403, code: "ErrNoPermission" });
    await refused(() => test_(admin.token, relay(), { ...JSON_ANSWER, origin: "http://localhost", "sec-fetch-site": "cross-site" }), { status: 403, code: "ErrNoPermission" });
  });

  test("a header injected through From or Host is refused before anything is sent", async () => {
    const { refused } = refusals(snapshot);
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    await refused(() => test_(admin.token, { ...relay(), "panel.email.from": "panel@example.com\r\nBcc: victim@example.com" }), { status: 400, code: "ErrFieldMustBePrintable" });
    await refused(() => test_(admin.token, { ...relay(), "panel.email.host": `127.0.0.1:${smtp.port}\nRCPT TO:<x@example.com>` }), { status: 400, code: "ErrFieldMustBePrintable" });
    await refused(() => test_(admin.token, { ...relay(), "panel.email.provider": "sendmail" }), { status: 400, code: "ErrServiceInvalidProvider" });
  });

  test("a shell expression as the host is only a name that does not resolve: a failed send, no command run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-email-"));
    const marker = join(dir, "pwned");
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const before = await snapshot();
    for (const host of [`$(touch ${marker})`, `\`touch ${marker}\``, `"; touch ${marker}; "`]) {
      const res = await test_(admin.token, { ...relay(), "panel.email.host": host });
      const body = await res.json();
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(600);
      expect(body.error.code).toMatch(/^Err(ServiceNotAvailable|SettingNotConfigured)$/);
      expect(JSON.stringify(body)).not.toMatch(/\n\s+at |\/work\/|node_modules/);
    }
    expect(existsSync(marker)).toBe(false);
    expect(await snapshot()).toEqual(before);
  });

  test("a good test sends one message to the caller and stores nothing; the answer is a sentence", async () => {
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const before = await snapshot();
    const res = await test_(admin.token, relay());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ msg: "Test email sent to your address" });
    expect(smtp.received.length).toBe(before.mail + 1);
    expect(smtp.received.at(-1)!.to).toEqual([admin.email]);
    expect((await snapshot()).settings).toEqual(before.settings);
  });

  test("an oversized form is refused with the catalogue error", async () => {
    const { refused } = refusals(snapshot);
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    await refused(() => test_(admin.token, { ...relay(), "panel.email.from": "x".repeat(17 * 1024 * 1024) }), { status: 413, code: "ErrMessageTooLarge" });
  });
});
