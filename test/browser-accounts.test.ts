// Accounts in a real browser: two-factor set-up and login with the code dialog, a passkey
// ceremony with a virtual authenticator (DevTools protocol), and the OAuth2 clients card.
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { browserPanelForFile, startBrowserPanel } from "./helpers/browser-panel";
import { tempDir, runKiln } from "./helpers/process";
import { totpCode } from "./helpers/totp";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel), () => {
  const data = tempDir();
  for (const [email, username] of [["otp@example.com", "otpuser"], ["key@example.com", "keyuser"], ["api@example.com", "apiuser"]]) {
    expect(runKiln(["user", "add", "--email", email!, "--username", username!, "--password", "password123"], { KILN_DATA: data }).code).toBe(0);
  }
  return startBrowserPanel({}, data);
});

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto(`${base}/auth/login`);
  await page.fill("input[name=email]", email);
  await page.fill("input[name=password]", "password123");
  await page.click("main form button[type=submit]");
}

describe.if(enabled)("accounts in a browser", () => {
  test("two-factor: set up on the account page, then login asks for the code and Enter submits", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page, "otp@example.com");
    await page.waitForURL(`${base}/account`); // no servers.view: lands on Account
    await page.click('form[action="/account/otp/start"] button');
    const secret = (await page.textContent('[data-testid="otp-secret"]'))!.trim();
    expect(await page.getAttribute("img.qr", "src")).toStartWith("data:image/png");
    await page.fill('form[action="/account/otp/confirm"] input[name=token]', totpCode(secret));
    await page.fill('form[action="/account/otp/confirm"] input[name=password]', "password123");
    await page.click('form[action="/account/otp/confirm"] button.btn-primary');
    // Switching on shows the recovery codes once; closing it leaves two-factor on.
    await page.waitForSelector('[data-testid="recovery-codes"]');
    await page.click('#recovery-codes a.btn-primary');
    await page.waitForSelector(".badge-on");

    await page.click('form[action="/auth/logout"] button');
    await page.waitForURL(`${base}/auth/login`);
    await logIn(page, "otp@example.com");
    await page.waitForSelector(".otp-dialog");
    // The browser moves the focus to the autofocus field as it runs the page's tasks: waited for, as a user's next key would be.
    await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "token", undefined, { timeout: 10_000 }).catch(() => undefined);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("token");
    await page.keyboard.type(totpCode(secret, Date.now() + 30_000));
    await page.keyboard.press("Enter");
    await page.waitForURL(`${base}/account`);
    await context.close();
  });

  test("passkey: register one on the account page, then sign in with it", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await logIn(page, "key@example.com");
    await page.waitForURL(`${base}/account`);
    await page.fill('#passkeys input[name="name"]', "Test laptop");
    // A session alone adds no passkey: a wrong password is refused and adds none.
    await page.fill('#passkeys input[name="password"]', "not-the-password");
    await page.click("[data-add-passkey]");
    await page.waitForSelector(".toast");
    expect(await page.locator("#passkeys .list-row").count()).toBe(0);
    await page.fill('#passkeys input[name="password"]', "password123");
    await page.click("[data-add-passkey]");
    await page.waitForSelector("#passkeys .list-row");
    expect(await page.textContent("#passkeys .list-row strong")).toBe("Test laptop");

    await page.click('form[action="/auth/logout"] button');
    await page.waitForURL(`${base}/auth/login`);
    await page.click("[data-passkey-login]");
    await page.waitForURL(`${base}/account`);
    expect(await page.inputValue('#profile input[name="email"]')).toBe("key@example.com");
    await context.close();
  });

  test("OAuth2 client: create shows the secret once; delete needs the acknowledgement", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page, "api@example.com");
    await page.waitForURL(`${base}/account`);
    await page.click("#oauth2 summary.btn-primary");
    await page.fill('#oauth2 form[action="/account/oauth2"] input[name="name"]', "deploy bot");
    // A session alone makes no client: the account's password is asked again.
    await page.fill('#oauth2 form[action="/account/oauth2"] input[name="password"]', "password123");
    await page.press('#oauth2 form[action="/account/oauth2"] input[name="description"]', "Enter");
    const secret = await page.textContent('[data-testid="client-secret"]');
    expect(secret!.length).toBeGreaterThan(20);
    await page.click("#oauth2-credentials a.btn-primary");
    await page.waitForSelector("#oauth2 .list-row");
    expect(await page.content()).not.toContain(secret!);

    await page.click("#oauth2 .list-row summary");
    const submit = page.locator('#oauth2 .list-row form button[type="submit"]');
    await submit.click();
    // The unticked acknowledgement blocks the form.
    expect(await page.locator("#oauth2 .list-row").count()).toBe(1);
    await page.check('#oauth2 .list-row input[name="ack"]');
    await submit.click();
    await page.waitForSelector("#oauth2 .list-row", { state: "detached" });
    await context.close();
  });
});
