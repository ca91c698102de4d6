// Screenshots of the screens a browser test drives, for people to look at: taken only when
// KILN_SHOTS names a folder (docs/screenshots keeps the ones we looked at), at the laptop and
// phone widths, and in a right-to-left locale.
import { join } from "node:path";
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from "playwright-core";

export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
/** A right-to-left locale, by the panel's locale cookie. */
export const RTL_LOCALE = "ar_SA";

const SHOTS = process.env.KILN_SHOTS;

/** `name`.png in KILN_SHOTS, of the page (whole) or of one element; nothing without KILN_SHOTS. */
export async function shoot(target: Page | Locator, name: string): Promise<void> {
  if (!SHOTS) return;
  const path = join(SHOTS, `${name}.png`);
  if ("goto" in target) await target.screenshot({ path, fullPage: true });
  else await target.screenshot({ path });
}

/** The three ways a screen is shot: name suffix, viewport, and the locale cookie (null: English). */
export const SHOT_VARIANTS = [
  { suffix: "1280", viewport: LAPTOP, locale: null },
  { suffix: "390", viewport: PHONE, locale: null },
  { suffix: "ar-390", viewport: PHONE, locale: RTL_LOCALE },
] as const;

/**
 * A context at `viewport` (with `options`), in `locale` when given, logged in: with `login`'s email and password, or
 * in the session of `login` when it is a context logged in already (its cookies, the locale's
 * aside, are copied: a screen shot at three widths needs one login, not three; a login is a
 * password hash checked, which a busy machine takes a second over).
 */
export async function shotContext(browser: Browser, base: string, viewport: { width: number; height: number }, locale: string | null, login: { email: string; password: string } | BrowserContext, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, ...options });
  if (locale) await context.addCookies([{ name: "kiln_locale", value: locale, url: base }]);
  if ("cookies" in login) {
    await context.addCookies((await login.cookies(base)).filter((cookie) => cookie.name !== "kiln_locale"));
    return context;
  }
  const answer = await context.request.post(`${base}/auth/login`, { data: login });
  if (answer.status() !== 200) throw new Error(`login failed: ${answer.status()}`);
  return context;
}
