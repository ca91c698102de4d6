// A fresh panel's first login screen in Chromium: it says who the first administrator is and
// where its password is, until that administrator has logged in; and the two-factor setup it then
// offers. Screenshots at laptop and phone widths and right to left (KILN_SHOTS).
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile } from "./helpers/browser-panel";
import { SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { sidewaysOverflow } from "./helpers/browser";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

describe.if(enabled)("the first login screen", () => {
  test("names the first administrator until it has logged in (laptop, phone, right to left)", async () => {
    for (const { suffix, viewport, locale } of SHOT_VARIANTS) {
      const context = await browser.newContext({ viewport });
      if (locale) await context.addCookies([{ name: "kiln_locale", value: locale, url: base }]);
      const page = await context.newPage();
      await page.goto(`${base}/auth/login`);
      const notice = page.locator('[data-testid="first-admin-notice"]');
      expect(await notice.isVisible()).toBe(true);
      if (!locale) expect(await notice.textContent()).toContain(`the administrator account is ${BROWSER_ADMIN.email}, with the password set in KILN_ADMIN_PASSWORD`);
      expect(await sidewaysOverflow(page)).toEqual([]);
      await shoot(page, `first-login-${suffix}`);
      await context.close();
    }
    // Once that administrator has logged in, the login screen says nothing of it.
    const context = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, BROWSER_ADMIN);
    await context.clearCookies();
    const page = await context.newPage();
    await page.goto(`${base}/auth/login`);
    expect(await page.locator('[data-testid="first-admin-notice"]').count()).toBe(0);
    await context.close();
  }, 90_000);

  test("screenshots of the two-factor setup (laptop, phone, right to left)", async () => {
    for (const { suffix, viewport, locale } of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, viewport, locale, BROWSER_ADMIN);
      const page = await context.newPage();
      await page.goto(`${base}/account`);
      await page.click('form[action="/account/otp/start"] button');
      await page.waitForSelector('[data-testid="otp-secret"]');
      // The code field has the caret; Cancel is a form of its own, so Enter confirms.
      expect(await page.locator('button[form="otp-cancel"]').count()).toBe(1);
      await shoot(page.locator('form[action="/account/otp/confirm"]'), `two-factor-setup-${suffix}`);
      await page.click('button[form="otp-cancel"]');
      await page.waitForSelector('form[action="/account/otp/start"]');
      await context.close();
    }
  }, 90_000);
});
