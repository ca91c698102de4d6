// The settings screen's email tab in a real browser against a real panel and a local SMTP server:
// only the chosen provider's fields show, with and without script; "Send a
// test email" tests the values in the form without saving them and keeps every edit: with script
// in the background with a toast, without script on a page that shows the form as it was posted.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, logInAsAdmin, browserPanelForFile } from "./helpers/browser-panel";
import { startSmtp } from "./helpers/smtp";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
beforeAll(async () => {
  if (enabled) smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
});

const PROVIDER = 'select[name="panel.email.provider"]';
const input = (name: string) => `input[name="panel.email.${name}"]`;
/** The email form's fields on screen, by setting name. */
const visibleFields = (page: Page) =>
  page.$$eval("form.email-settings [name^='panel.email.']", (els) =>
    els.filter((e) => (e as HTMLElement).offsetParent !== null && e.getAttribute("type") !== "hidden").map((e) => e.getAttribute("name")!.slice("panel.email.".length)),
  );
const stored = async (page: Page, key: string) => (await (await page.request.get(`${base}/api/settings/${key}`)).json()).value;

describe.if(enabled)("the email settings in a browser", () => {
  test("only the chosen provider's fields show, with script and without", async () => {
    const page = await (await browser.newContext()).newPage();
    await logInAsAdmin(page, base);
    const cookies = await page.context().cookies();
    const plain = await browser.newContext({ javaScriptEnabled: false });
    await plain.addCookies(cookies);
    for (const tab of [page, await plain.newPage()]) {
      await tab.goto(`${base}/settings?tab=email`);
      expect(await visibleFields(tab)).toEqual(["provider"]);
      await tab.selectOption(PROVIDER, "smtp");
      expect(await visibleFields(tab)).toEqual(["provider", "from", "host", "username", "password"]);
      await tab.selectOption(PROVIDER, "mailgun");
      expect(await visibleFields(tab)).toEqual(["provider", "from", "domain", "key"]);
      await tab.selectOption(PROVIDER, "mailjet");
      expect(await visibleFields(tab)).toEqual(["provider", "from", "key", "password"]);
    }
    await plain.close();
  }, 60_000);

  test("with script: the test email uses the unsaved form, saves nothing, and every edit stays", async () => {
    const page = await (await browser.newContext()).newPage();
    await logInAsAdmin(page, base);
    await page.goto(`${base}/settings?tab=email`);
    await page.selectOption(PROVIDER, "smtp");
    await page.fill(input("from"), "Kiln <panel@example.com>");
    await page.fill(input("host"), `127.0.0.1:${smtp!.port}`);
    const before = smtp!.received.length;
    // Its script loads after the page; a click before it would post the plain form instead.
    await page.waitForSelector('html[data-fetch-submit="ready"]', { state: "attached" });
    await page.click('button:has-text("Send a test email to me")');
    await page.waitForFunction(() => [...document.querySelectorAll(".toast")].some((t) => t.textContent === "Test email sent to your address"));
    expect(smtp!.received.length).toBe(before + 1);
    expect(smtp!.received.at(-1)!.to).toEqual([BROWSER_ADMIN.email]);
    // Still the same page with the same edits; nothing stored.
    expect(new URL(page.url()).search).toBe("?tab=email");
    expect(await page.inputValue(PROVIDER)).toBe("smtp");
    expect(await page.inputValue(input("host"))).toBe(`127.0.0.1:${smtp!.port}`);
    expect(await stored(page, "panel.email.provider")).toBe("none");
    expect(await stored(page, "panel.email.host")).toBe("");

    // A setting the provider needs, left empty: said in a toast, the edits still there.
    await page.fill(input("host"), "");
    await page.click('button:has-text("Send a test email to me")');
    await page.waitForFunction(() => [...document.querySelectorAll(".toast-error")].some((t) => t.textContent === "The setting Host (host:port) is not configured"));
    expect(await page.inputValue(input("from"))).toBe("Kiln <panel@example.com>");

    // Save still saves what the form holds.
    await page.fill(input("host"), `127.0.0.1:${smtp!.port}`);
    await page.click('form.email-settings button:text-is("Save")');
    await page.waitForURL(`${base}/settings?tab=email`);
    expect(await stored(page, "panel.email.provider")).toBe("smtp");
    expect(await stored(page, "panel.email.host")).toBe(`127.0.0.1:${smtp!.port}`);
  }, 60_000);

  test("without script: the page comes back with the form as posted, says nothing was saved, and names a typed secret", async () => {
    const admin = await (await browser.newContext()).newPage();
    await logInAsAdmin(admin, base);
    // A stored configuration the form is about to differ from.
    expect((await admin.request.post(`${base}/api/settings`, { data: { "panel.email.provider": "mailgun", "panel.email.from": "old@example.com", "panel.email.domain": "mg.example.com" } })).status()).toBeLessThan(300);
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(await admin.context().cookies());
    const page = await context.newPage();
    await page.goto(`${base}/settings?tab=email`);
    await page.selectOption(PROVIDER, "smtp");
    await page.fill(input("from"), "Kiln <new@example.com>");
    await page.fill(input("host"), `127.0.0.1:${smtp!.port}`);
    // The local relay takes no login, so no username: the password is typed all the same.
    await page.fill(input("password"), "typed secret");
    const before = smtp!.received.length;
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Send a test email to me")')]);
    expect(smtp!.received.length).toBe(before + 1);
    expect(await page.textContent(".alert")).toBe(
      `Test email sent to ${BROWSER_ADMIN.email} with the settings below. They are not saved yet: Save keeps them. The password or key you typed was used for the test but is not shown again: type it again before saving.`,
    );
    expect([await page.inputValue(PROVIDER), await page.inputValue(input("from")), await page.inputValue(input("host"))]).toEqual(["smtp", "Kiln <new@example.com>", `127.0.0.1:${smtp!.port}`]);
    // The typed secret is not in the page, and nothing was stored.
    expect(await page.content()).not.toContain("typed secret");
    expect(await stored(admin, "panel.email.provider")).toBe("mailgun");
    expect(await stored(admin, "panel.email.from")).toBe("old@example.com");

    // A refusal comes back at its field, with the form as posted.
    await page.fill(input("from"), "");
    await page.fill(input("password"), "typed again");
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Send a test email to me")')]);
    expect(await page.textContent(".field-error")).toBe("The setting From address is not configured");
    // A password typed for this try is not shown back either: the page says so again.
    expect(await page.textContent(".alert")).toBe("The password or key you typed was used for the test but is not shown again: type it again before saving.");
    expect(await page.getAttribute(input("from"), "aria-invalid")).toBe("true");
    expect(await page.inputValue(input("host"))).toBe(`127.0.0.1:${smtp!.port}`);
    await context.close();
  }, 60_000);
});
