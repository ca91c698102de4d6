// The Account screen's two-factor forms without script: switching on shows the
// recovery codes once (list, .txt download, copy), the page then shows how many are left; new
// codes need the password; an enrolment can be cancelled; the login dialog takes a recovery code;
// each refusal is worded for its case and shown at the code field.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { totpCode } from "./helpers/totp";

let panel: TestPanel;
let user: Awaited<ReturnType<typeof loginAs>>;
beforeEach(async () => {
  panel = await testPanel();
  user = await loginAs(panel.db);
});

const form = (path: string, fields: Record<string, string>, token?: string, cookie?: string) =>
  panel.request(path, { method: "POST", token, headers: { "content-type": "application/x-www-form-urlencoded", ...HTML, ...(cookie ? { cookie } : {}) }, body: new URLSearchParams(fields).toString() });

const secretOf = (html: string) => /data-testid="otp-secret">([A-Z2-7]+)</.exec(html)![1]!;
/** The <input> called `name` in the form posting to `action`. */
const inputIn = (html: string, action: string, name: string) => {
  const form = html.slice(html.indexOf(`action="${action}"`));
  return new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(form.slice(0, form.indexOf("</form>")))![0];
};
const codesOf = (html: string) => [...html.matchAll(/<li><code>([0-9a-z-]{19})<\/code><\/li>/g)].map((m) => m[1]!);

async function switchOn(): Promise<{ secret: string; html: string }> {
  const started = await (await form("/account/otp/start", {}, user.token)).text();
  const secret = secretOf(started);
  const done = await form("/account/otp/confirm", { token: totpCode(secret), password: "password123" }, user.token);
  expect(done.status).toBe(200);
  return { secret, html: await done.text() };
}

describe("two-factor on the Account screen", () => {
  test("switching on shows ten codes once, with a .txt download holding them; then only the count", async () => {
    const { html } = await switchOn();
    const codes = codesOf(html);
    expect(codes).toHaveLength(10);
    const href = /href="(data:text\/plain;charset=utf-8,[^"]+)" download="kiln-recovery-codes.txt"/.exec(html)![1]!;
    const file = decodeURIComponent(href.replace(/&amp;/g, "&").slice("data:text/plain;charset=utf-8,".length));
    for (const code of codes) expect(file).toContain(code);
    expect(file).toContain(user.email);
    expect(html).toMatch(/<button[^>]*data-copy="[^"]+"[^>]*hidden/);
    const later = await (await panel.request("/account", { headers: HTML, token: user.token })).text();
    for (const code of codes) expect(later).not.toContain(code);
    expect(later).toContain("Recovery codes left: 10");
  });

  test("a wrong code while switching on is said at the code field, described by it", async () => {
    await form("/account/otp/start", {}, user.token);
    const res = await form("/account/otp/confirm", { token: "000000", password: "password123" }, user.token);
    expect(res.status).toBe(400);
    const html = await res.text();
    const input = inputIn(html, "/account/otp/confirm", "token");
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="otp-confirm-token-error"');
    expect(html).toMatch(/<span class="field-error" id="otp-confirm-token-error" role="alert">That code is not right/);
    // Enrolling takes only the app's code: the message does not offer a recovery code.
    expect(html).not.toContain("or a recovery code");
  });

  test("cancelling an enrolment discards the key shown; starting again shows another", async () => {
    const first = secretOf(await (await form("/account/otp/start", {}, user.token)).text());
    const res = await form("/account/otp/cancel", { token: "" }, user.token);
    expect(res.status).toBe(303);
    const page = await (await panel.request("/account", { headers: HTML, token: user.token })).text();
    expect(page).not.toContain(first);
    expect(page).toContain('action="/account/otp/start"');
    expect(secretOf(await (await form("/account/otp/start", {}, user.token)).text())).not.toBe(first);
  });

  test("new codes need the password: a wrong one is said at the password field, the right one shows new codes", async () => {
    const { html } = await switchOn();
    const wrong = await form("/account/otp/recovery", { password: "wrong-password", token: "" }, user.token);
    expect(wrong.status).toBe(401);
    const wrongHtml = await wrong.text();
    const input = inputIn(wrongHtml, "/account/otp/recovery", "password");
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="otp-recovery-password-error"');
    expect(wrongHtml).toContain('id="otp-recovery-password-error" role="alert">That is not your current password.');
    // The profile form's password field is not the one blamed.
    expect(inputIn(wrongHtml, "/account/profile", "password")).not.toContain("aria-invalid");
    expect(wrongHtml).toContain('<details class="modal" data-close-on-escape="" data-testid="regenerate-recovery" open=""');
    const fresh = codesOf(await (await form("/account/otp/recovery", { password: "password123", token: "" }, user.token)).text());
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => codesOf(html).includes(c))).toBe(false);
  });

  test("the login dialog takes a recovery code, and says so when one is used again", async () => {
    const { html } = await switchOn();
    const [code] = codesOf(html);
    const pending = async () => {
      const res = await form("/auth/login", { email: user.email, password: "password123" });
      expect(await res.text()).toContain("Use a recovery code instead");
      return `kiln_pending=${/kiln_pending=([^;]+)/.exec(res.headers.get("set-cookie")!)![1]}`;
    };
    const ok = await form("/auth/otp", { token: code!.toUpperCase() }, undefined, await pending());
    expect(ok.status).toBe(303);
    const again = await form("/auth/otp", { token: code! }, undefined, await pending());
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("This recovery code was already used");
    const wrong = await form("/auth/otp", { token: "123456" }, undefined, await pending());
    expect(await wrong.text()).toContain("That code is not right");
  });
});
