// Account and permission screens in Chromium, at 1366 and 390 px: two-factor recovery
// codes (shown once, downloaded as .txt and copied, one used at login, the count left, new ones
// needing the password with the error at its field), cancelling an enrolment, the permission
// presets setting the switches (with script) and saving (without), copy buttons for one-time
// secrets, and a node form error beside its field.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, createEchoServer } from "./helpers/browser-panel";
import { totpCode } from "./helpers/totp";
import { shotContext } from "./helpers/screenshots";
import { PERMISSION_PRESETS } from "../core/scopes/presets";
import { SERVER_FLAGS } from "../core/scopes";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
let accounts = 0;

/** The administrator's one login for the file: the accounts are made in its session, the admin's screens opened in it (shotContext). */
let admin: BrowserContext;
beforeAll(async () => {
  if (enabled) admin = await shotContext(browser, base, LAPTOP, null, BROWSER_ADMIN);
});

/** A fresh account (made by the administrator through the API) logged in, in its own context. */
async function newAccount(viewport: { width: number; height: number }, options: { javaScriptEnabled?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; email: string }> {
  accounts++;
  const email = `person${accounts}@example.com`;
  expect((await admin.request.post(`${base}/api/users`, { data: { email, username: `person${accounts}x`, password: "password123" } })).status()).toBeLessThan(300);
  const context = await browser.newContext({ viewport, permissions: ["clipboard-read", "clipboard-write"], acceptDownloads: true, ...options });
  const page = await context.newPage();
  await logIn(page, email);
  return { context, page, email };
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto(`${base}/auth/login`);
  await page.fill("main input[name=email]", email);
  await page.fill("main input[name=password]", "password123");
  await page.click("main form button[type=submit]");
}

/** The drawer's Log out is behind the menu on a phone: post the same form directly. */
async function logOut(context: BrowserContext): Promise<void> {
  expect((await context.request.post(`${base}/auth/logout`)).status()).toBeLessThan(400);
}

/** Logs out, logs in again, and answers the code prompt with recovery code `code` instead of the app's code. */
async function logInAgainWithRecoveryCode(context: BrowserContext, page: Page, email: string, code: string): Promise<void> {
  await logOut(context);
  await logIn(page, email);
  await page.waitForSelector(".otp-dialog");
  await page.click(".recovery-login summary");
  await page.fill('input[form="recovery-login"]', code);
  await page.click('button[form="recovery-login"]');
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** Switches two-factor on from the Account page; answers the secret and the codes shown. */
async function switchOn(page: Page): Promise<{ secret: string; codes: string[] }> {
  await page.goto(`${base}/account`);
  await page.click('form[action="/account/otp/start"] button');
  const secret = (await page.textContent('[data-testid="otp-secret"]'))!.trim();
  await page.fill('form[action="/account/otp/confirm"] input[name=token]', totpCode(secret));
  await page.fill('form[action="/account/otp/confirm"] input[name=password]', "password123");
  await page.click('form[action="/account/otp/confirm"] button.btn-primary');
  const codes = (await page.locator('[data-testid="recovery-codes"] code').allTextContents()).map((c) => c.trim());
  return { secret, codes };
}

describe.if(enabled)("recovery codes in a browser", () => {
  for (const viewport of [LAPTOP, PHONE]) {
    test(`at ${viewport.width} px: shown once, downloaded and copied; one logs in once; the count follows`, async () => {
      const { context, page, email } = await newAccount(viewport);
      await page.waitForURL(`${base}/account`);
      const { codes } = await switchOn(page);
      expect(codes).toHaveLength(10);
      expect(await pageWidth(page)).toBeLessThanOrEqual(viewport.width);
      // Every code is on screen, inside the dialog.
      for (const code of await page.locator('[data-testid="recovery-codes"] code').all()) expect(await code.isVisible()).toBe(true);

      const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="download-recovery"]')]);
      expect(download.suggestedFilename()).toBe("kiln-recovery-codes.txt");
      const text = readFileSync((await download.path())!, "utf8");
      for (const code of codes) expect(text).toContain(code);

      await page.click('#recovery-codes button[aria-label="Copy recovery codes"]');
      await page.waitForSelector("#recovery-codes .copy-chip");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join("\n"));

      await page.click("#recovery-codes a.btn-primary");
      await page.waitForSelector('[data-testid="recovery-left"]');
      expect(await page.textContent('[data-testid="recovery-left"]')).toBe("Recovery codes left: 10");
      expect(await page.content()).not.toContain(codes[0]!);

      // Log in again with a recovery code instead of the app's code.
      await logInAgainWithRecoveryCode(context, page, email, codes[2]!);
      await page.waitForURL(`${base}/account`);
      expect(await page.textContent('[data-testid="recovery-left"]')).toBe("Recovery codes left: 9");

      // The same code again is refused, and said to be used.
      await logInAgainWithRecoveryCode(context, page, email, codes[2]!);
      await page.waitForSelector(".otp-dialog .alert-error");
      expect(await page.textContent(".otp-dialog .alert-error")).toContain("This recovery code was already used");
      expect(await pageWidth(page)).toBeLessThanOrEqual(viewport.width);
      await context.close();
    });
  }

  test("new codes need the password: a wrong one is said at its field, the right one shows new codes", async () => {
    const { context, page } = await newAccount(PHONE);
    await page.waitForURL(`${base}/account`);
    const { codes } = await switchOn(page);
    await page.click("#recovery-codes a.btn-primary");
    await page.click('[data-testid="regenerate-recovery"] summary');
    await page.fill('form[action="/account/otp/recovery"] input[name=password]', "wrong-password");
    await page.click('form[action="/account/otp/recovery"] button[type=submit]');
    // The page comes back with the dialog open and the message under the password.
    const password = page.locator('form[action="/account/otp/recovery"] input[name=password]');
    await password.waitFor();
    expect(await password.getAttribute("aria-invalid")).toBe("true");
    const described = await password.getAttribute("aria-describedby");
    expect(await page.locator(`#${described}`).textContent()).toBe("That is not your current password.");
    expect(await page.locator(`#${described}`).isVisible()).toBe(true);
    await password.fill("password123");
    await page.click('form[action="/account/otp/recovery"] button[type=submit]');
    const fresh = (await page.locator('[data-testid="recovery-codes"] code').allTextContents()).map((c) => c.trim());
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
    await context.close();
  });

  // Enter submits with a form's first submit button; Cancel sits first on screen, so it must not
  // be a submit button of the code's form.
  for (const javaScriptEnabled of [true, false]) {
    test(`Enter in the code field confirms the setup (script ${javaScriptEnabled ? "on" : "off"})`, async () => {
      const { context, page } = await newAccount(LAPTOP, { javaScriptEnabled });
      await page.waitForURL(`${base}/account`);
      await page.click('form[action="/account/otp/start"] button');
      const secret = (await page.textContent('[data-testid="otp-secret"]'))!.trim();
      await page.fill('form[action="/account/otp/confirm"] input[name=password]', "password123");
      await page.fill('form[action="/account/otp/confirm"] input[name=token]', totpCode(secret));
      await page.press('form[action="/account/otp/confirm"] input[name=token]', "Enter");
      await page.waitForSelector('[data-testid="recovery-codes"]', { timeout: 10_000 });
      expect(await page.locator('[data-testid="recovery-codes"] code').count()).toBe(10);
      await context.close();
    });
  }

  test("an enrolment can be cancelled without typing a code; its key is gone", async () => {
    const { context, page } = await newAccount(LAPTOP);
    await page.waitForURL(`${base}/account`);
    await page.click('form[action="/account/otp/start"] button');
    const secret = (await page.textContent('[data-testid="otp-secret"]'))!.trim();
    await page.click('button[form="otp-cancel"]');
    await page.waitForSelector('form[action="/account/otp/start"]');
    expect(await page.content()).not.toContain(secret);
    expect(await page.textContent(".toast")).toContain("Two-factor setup cancelled");
    await context.close();
  });
});

describe.if(enabled)("permission presets and copy buttons in a browser", () => {
  for (const viewport of [LAPTOP, PHONE]) {
    test(`at ${viewport.width} px: a preset sets the switches and sends nothing until Add`, async () => {
      const context = await shotContext(browser, base, viewport, null, admin, { permissions: ["clipboard-read", "clipboard-write"] });
      const page = await context.newPage();
      const id = await createEchoServer(page, base, `Presets ${viewport.width}`);
      const friend = `friend${viewport.width}@example.com`;
      expect((await context.request.post(`${base}/api/users`, { data: { email: friend, username: `friend${viewport.width}`, password: "password123" } })).status()).toBeLessThan(300);
      await page.goto(`${base}/server/${id}?tab=users`);
      const form = page.locator('[data-testid="add-server-user"]');
      await page.getByText("Add a user").click();
      await form.locator("input[name=email]").fill(friend);
      await form.locator('button[value="operator"]').click();
      // Nothing was sent: still on the tab, the switches now read as the preset.
      expect(page.url()).toBe(`${base}/server/${id}?tab=users`);
      for (const flag of SERVER_FLAGS) expect(await form.locator(`input[type=checkbox][name=${flag}]`).isChecked()).toBe(PERMISSION_PRESETS.operator.includes(flag));
      await form.locator('button[value="viewer"]').click();
      for (const flag of SERVER_FLAGS) expect(await form.locator(`input[type=checkbox][name=${flag}]`).isChecked()).toBe(PERMISSION_PRESETS.viewer.includes(flag));
      // Enter in the email field means Add, not the first preset.
      await form.locator('input[type=checkbox][name="startServer"]').check();
      await form.locator("input[name=email]").press("Enter");
      await page.waitForSelector('[data-testid="server-user"]');
      const users = await (await context.request.get(`${base}/api/servers/${id}/user`)).json();
      const entry = users.find((u: { email: string }) => u.email === friend);
      for (const flag of SERVER_FLAGS) expect(entry[flag]).toBe(PERMISSION_PRESETS.viewer.includes(flag) || flag === "startServer");
      expect(await pageWidth(page)).toBeLessThanOrEqual(viewport.width);
      await context.close();
    });
  }

  test("without script a preset button saves the preset", async () => {
    const adminPage = await admin.newPage();
    const id = await createEchoServer(adminPage, base, "Presets no script");
    await adminPage.close();
    await admin.request.post(`${base}/api/users`, { data: { email: "plain@example.com", username: "plainuser", password: "password123" } });
    const context = await shotContext(browser, base, PHONE, null, admin, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/server/${id}?tab=users`);
    const form = page.locator('[data-testid="add-server-user"]');
    await page.getByText("Add a user").click();
    await form.locator("input[name=email]").fill("plain@example.com");
    await form.locator('button[value="coOwner"]').click();
    await page.waitForSelector('[data-testid="server-user"]');
    const users = await (await admin.request.get(`${base}/api/servers/${id}/user`)).json();
    const entry = users.find((u: { email: string }) => u.email === "plain@example.com");
    for (const flag of SERVER_FLAGS) expect(entry[flag]).toBe(PERMISSION_PRESETS.coOwner.includes(flag));
    await context.close();
  });

  test("the OAuth2 client secret has a copy button that copies it", async () => {
    const { context, page } = await newAccount(PHONE);
    await page.waitForURL(`${base}/account`);
    await page.click("#oauth2 summary.btn-primary");
    await page.fill('#oauth2 form[action="/account/oauth2"] input[name="name"]', "bot");
    await page.fill('#oauth2 form[action="/account/oauth2"] input[name="password"]', "password123");
    await page.click('#oauth2 form[action="/account/oauth2"] button[type=submit]');
    const secret = (await page.textContent('[data-testid="client-secret"]'))!.trim();
    await page.click('#oauth2-credentials button[aria-label="Copy Client secret"]');
    await page.waitForSelector("#oauth2-credentials .copy-chip");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  });

  test("a node form error is shown under its field (390 px)", async () => {
    const context = await shotContext(browser, base, PHONE, null, admin);
    const page = await context.newPage();
    await page.goto(`${base}/addnode`);
    await page.fill("input[name=name]", "edge");
    await page.fill("input[name=publicHost]", "bad host!");
    await page.fill("input[name=privateHost]", "10.0.0.9");
    await page.click('form[action="/addnode"] button[type=submit]');
    const input = page.locator("input[name=publicHost]");
    await page.waitForSelector(".field-error");
    expect(await input.getAttribute("aria-invalid")).toBe("true");
    const message = page.locator(`#${await input.getAttribute("aria-describedby")}`);
    expect(await message.textContent()).toBe("Public host must be a valid IP or FQDN");
    // Right under its input.
    const [field, error] = [await input.boundingBox(), await message.boundingBox()];
    expect(error!.y).toBeGreaterThan(field!.y);
    expect(error!.y - (field!.y + field!.height)).toBeLessThan(20);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  });
});
