// The shell in a real browser: island hydration, dark mode, themes from the tar, the language
// picker, login, hotkeys, the phone drawer and the error-details overlay.
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { logInAsAdmin, browserPanelForFile } from "./helpers/browser-panel";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

async function hydrateThemeMenu(page: Page): Promise<void> {
  await page.hover(".theme-menu summary");
  await page.waitForSelector('[data-island="ThemeMenu"][data-hydrated="done"]');
}

const logIn = (page: Page) => logInAsAdmin(page, base);

describe.if(enabled)("shell in a browser", () => {
  test("the login page loads only the island loader until the island is touched, then hydrates it", async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on("request", (r) => r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname));
    await page.goto(`${base}/auth/login`);
    await page.waitForLoadState("networkidle");
    expect(scripts.some((s) => s.startsWith("/assets/client-"))).toBe(true);
    expect(scripts.some((s) => s.includes("hydrate") || s.includes("ThemeMenu"))).toBe(false);
    expect(await page.getAttribute('[data-island="ThemeMenu"]', "data-hydrated")).toBeNull();
    await hydrateThemeMenu(page);
    expect(scripts.some((s) => s.includes("ThemeMenu"))).toBe(true);
    await page.close();
  });

  test("dark mode and theme switch in place, are kept in local storage, and survive a reload", async () => {
    const context = await browser.newContext({ colorScheme: "light" });
    const page = await context.newPage();
    await page.goto(`${base}/auth/login`);
    await page.evaluate(() => ((window as any).sameDocument = true));
    await hydrateThemeMenu(page);
    await page.click(".theme-menu summary");
    await page.click('.theme-menu [role="switch"]');
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("kiln.dark"))).toBe("1");
    expect(await page.getAttribute('.theme-menu [role="switch"]', "aria-checked")).toBe("true");

    const oceanTar = page.waitForResponse((r) => r.url().endsWith("/theme/ocean.tar"));
    await page.click('[data-theme-option="ocean"]');
    await oceanTar;
    await page.waitForFunction(() => document.documentElement.dataset.theme === "ocean");
    expect(await page.evaluate(() => document.getElementById("kiln-theme")!.textContent)).toContain("--k-primary:#6ea8fe");
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(11, 18, 32)");
    expect(await page.evaluate(() => localStorage.getItem("kiln.theme"))).toBe("ocean");
    expect(await page.evaluate(() => (window as any).sameDocument)).toBe(true); // no navigation happened

    await page.reload();
    expect(await page.evaluate(() => [document.documentElement.className, document.documentElement.dataset.theme])).toEqual(["dark", "ocean"]);
    await context.close();
  });

  test("the language picker switches the page to German and the choice sticks", async () => {
    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    await page.goto(`${base}/auth/login`);
    expect(await page.textContent("main h1")).toBe("Log in");
    await page.click(".lang-menu summary");
    expect(await page.locator(".lang-btn").count()).toBeGreaterThanOrEqual(38);
    await page.click('.lang-btn[value="de_DE"]');
    await page.waitForFunction(() => document.documentElement.lang === "de-DE");
    expect(await page.textContent("main h1")).toBe("Anmelden");
    await page.goto(`${base}/auth/login`);
    expect(await page.textContent("main h1")).toBe("Anmelden");
    await context.close();
  });

  test("the browser language is used when nothing is stored", async () => {
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    await page.goto(`${base}/auth/login`);
    expect(await page.getAttribute("html", "lang")).toBe("fr-FR");
    await context.close();
  });

  test("after login, g-hotkeys navigate and the drawer collapses", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page);
    await page.keyboard.press("g");
    await page.keyboard.press("a");
    await page.waitForURL(`${base}/account`);
    await page.keyboard.press("g");
    await page.keyboard.press("s");
    await page.waitForURL(`${base}/server`);
    await page.goto(`${base}/account`);
    await page.click(".collapse-btn");
    expect(await page.evaluate(() => document.querySelector(".drawer")!.getBoundingClientRect().width)).toBeLessThan(80);
    await page.reload();
    expect(await page.evaluate(() => document.querySelector(".drawer")!.getBoundingClientRect().width)).toBeLessThan(80);
    await context.close();
  });

  test("on a phone the drawer opens from the menu button", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 780 } });
    const page = await context.newPage();
    await logIn(page);
    const left = () => page.evaluate(() => document.querySelector(".drawer")!.getBoundingClientRect().left);
    expect(await left()).toBeLessThan(0);
    await page.click(".drawer-open-btn");
    await page.waitForFunction(() => document.querySelector(".drawer")!.getBoundingClientRect().left >= 0);
    await context.close();
  });

  test("an unknown error shows a Details button opening the technical dump", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page);
    // Force the server side of one call to fail the way an unexpected bug would.
    await page.route("**/api/userSettings/dark", (route) => route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: { code: "ErrUnknownError", msg: "internal error" } }) }));
    await hydrateThemeMenu(page);
    await page.click(".theme-menu summary");
    await page.click('.theme-menu [role="switch"]');
    await page.waitForSelector(".toast-error");
    expect(await page.textContent(".toast-error span")).toBe("An unknown error occurred");
    await page.click(".toast-error button");
    const dump = await page.textContent("dialog.error-details pre");
    expect(dump).toContain('"status": 500');
    expect(dump).toContain('"statusText": "Server error"');
    expect(dump).toContain("/api/userSettings/dark");
    await page.click("dialog.error-details .btn-primary");
    await page.waitForSelector("dialog.error-details", { state: "detached" });
    await context.close();
  });
});
