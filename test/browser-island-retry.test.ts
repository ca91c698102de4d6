// An island whose code does not arrive the first time (a phone changing networks; Chromium ends
// requests in flight with ERR_NETWORK_CHANGED whenever a network interface comes or goes, as a
// node's servers make theirs) is asked for again, under a new address since Chromium keeps a failed
// module import failed, and hydrates; when it never arrives, the page stays the server-rendered one.
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, createEchoServer } from "./helpers/browser-panel";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

describe.if(enabled)("an island's code lost on its way", () => {
  test("is asked for again and hydrates; never arriving, the server's HTML stays", async () => {
    const context = await browser.newContext();
    expect((await context.request.post(`${base}/auth/login`, { data: BROWSER_ADMIN })).status()).toBe(200);
    const page = await context.newPage();
    const id = await createEchoServer(page, base, "Retry");

    // The status island's own chunk fails once, as a request ended by a network change does.
    let failed = 0;
    await page.route(/\/assets\/ServerStatus-[^/?]+\.js(\?retry=\d)?$/, (route) => (failed++ === 0 ? route.abort("internetdisconnected") : route.continue()));
    await page.goto(`${base}/server/${id}`);
    await page.waitForSelector('[data-island="ServerStatus"][data-hydrated="done"]', { state: "attached", timeout: 10_000 });
    expect(failed).toBe(2);

    // Failing every time: asked three times in all, then left as the server rendered it.
    await page.unroute(/\/assets\/ServerStatus-[^/?]+\.js(\?retry=\d)?$/);
    let asked = 0;
    const fresh = await context.newPage();
    await fresh.route(/\/assets\/ServerStatus-[^/?]+\.js(\?retry=\d)?$/, (route) => {
      asked++;
      return route.abort("internetdisconnected");
    });
    await fresh.goto(`${base}/server/${id}`);
    await fresh.waitForTimeout(2500);
    expect(asked).toBe(3);
    expect(await fresh.locator('[data-island="ServerStatus"]').getAttribute("data-hydrated")).toBe("");
    await context.close();
  }, 60_000);
});
