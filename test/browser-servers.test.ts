// Servers in a real browser against a real panel and its local node: create a server from a
// template on the Add server screen, start it, watch its console, send a command and see the
// answer, watch a stat arrive on the stats tab, and delete it.
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { logInAsAdmin, browserPanelForFile } from "./helpers/browser-panel";
import { echoTemplate } from "./helpers/node";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const logIn = (page: Page) => logInAsAdmin(page, base);

describe.if(enabled)("servers in a browser", () => {
  test("create from a template, start, console, command, stat, delete", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page);
    expect((await page.request.put(`${base}/api/templates/echo`, { data: echoTemplate() })).status()).toBe(200);

    await page.click('a[href="/addserver"]');
    await page.selectOption('form[data-testid="choose-template"] select[name=template]', "echo");
    await page.click('form[data-testid="choose-template"] button[type=submit]');
    await page.fill('form[data-testid="create-server"] input[name=name]', "Browser Echo");
    await page.fill('input[name="var.greeting"]', "browser");
    await page.click('form[data-testid="create-server"] button[type=submit]');
    await page.waitForURL(/\/server\/[0-9a-f]{8}$/);
    expect(await page.textContent('[data-testid="server-name"]')).toBe("Browser Echo");

    // The status dot turns red (offline) once the live socket reports, then Start starts it.
    await page.waitForSelector('.server-status-dot[data-status="offline"]');
    await page.click('.server-controls button[data-action="start"]');
    await page.waitForSelector('.server-status-dot[data-status="online"]');
    await page.waitForFunction(() => document.querySelector(".server-console-log")?.textContent?.includes("hello browser"), null, { timeout: 15_000 });
    expect(await page.isVisible('.server-controls button[data-action="restart"]')).toBe(true);

    await page.fill(".server-console-input input", "ping-from-chromium");
    await page.press(".server-console-input input", "Enter");
    await page.waitForFunction(() => document.querySelector(".server-console-log")?.textContent?.includes("got ping-from-chromium"));
    expect(await page.inputValue(".server-console-input input")).toBe("");

    // The stats tab by its hotkey (typing in the command input is not a hotkey, so leave it first).
    await page.locator(".server-console-input input").blur();
    await page.keyboard.press("t");
    await page.keyboard.press("i");
    await page.waitForURL(/tab=stats/);
    await page.waitForFunction(() => {
      const latest = [...document.querySelectorAll(".stats-chart-latest")].map((e) => e.textContent ?? "");
      return latest.length === 2 && !/^0(\.0+)?\s*[kmg]?i?b$/i.test(latest[1]!.trim()) && !latest[1]!.trim().startsWith("0 ");
    }, null, { timeout: 10_000 });

    // Delete from the admin tab, with the exact confirmation text.
    await page.goto(page.url().replace("tab=stats", "tab=admin"));
    await page.click('[data-testid="delete-server"] > summary');
    expect(await page.textContent('[data-testid="delete-server"] form p')).toBe("Do you really want to delete this server? (this cannot be undone)");
    await page.click('[data-testid="delete-server"] form button[type=submit]');
    await page.waitForURL(`${base}/server`);
    expect(await page.textContent(".toast")).toBe("Deleted Server");
    expect(await page.textContent("main")).not.toContain("Browser Echo");
    await context.close();
  }, 60_000);
});
