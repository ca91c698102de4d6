// A server ended by its memory limit, in a real browser (Chromium): the console names the limit in
// MiB as it was set, with the DAEMON chip, and the stats tab draws the limit across the memory
// chart and says "of 48 MiB" whatever unit the chart shows. Screenshots at 1280 and 390 px and in
// Arabic (right to left) are written for a person to look at (KILN_SHOTS).
import { describe, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile } from "./helpers/browser-panel";
import { shotContext } from "./helpers/screenshots";
import { echoTemplate } from "./helpers/node";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const SHOTS = process.env.KILN_SHOTS;
/** Holds about 20 MB, waits for "grow", then doubles a string far past 48 MiB. */
const TEMPLATE = echoTemplate({
  command: "sh -c 'a=x; i=0; while [ $i -lt 24 ]; do a=$a$a; i=$((i+1)); done; echo holding; while read l; do [ \"$l\" = grow ] && break; done; while :; do a=$a$a; done'",
});

describe.if(enabled)("a server with a memory limit", () => {
  test("the stats tab draws the limit; a kill by the limit says so on the console", async () => {
    const setup = await shotContext(browser, base, { width: 1280, height: 900 }, null, BROWSER_ADMIN);
    const api = setup.request;
    expect((await api.put(`${base}/api/templates/hog`, { data: TEMPLATE })).status()).toBeLessThan(300);
    const nodes = await (await api.get(`${base}/api/nodes`)).json();
    const created = await api.post(`${base}/api/servers`, { data: { name: "Limited", node: nodes[0].id, template: "hog", environment: { type: "standard" }, limits: { memoryMiB: 48 } } });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    expect((await api.post(`${base}/proxy/daemon/server/${id}/start?wait=true`)).status()).toBe(204);

    const shots: Array<[BrowserContext, string]> = [[setup, "1280"], [await shotContext(browser, base, { width: 390, height: 844 }, null, BROWSER_ADMIN), "390"], [await shotContext(browser, base, { width: 1280, height: 900 }, "ar_SA", BROWSER_ADMIN), "ar-1280"]];
    for (const [context, label] of shots) {
      const page = await context.newPage();
      await page.goto(`${base}/server/${id}?tab=stats`);
      await page.waitForSelector('[data-island="ServerStats"][data-hydrated="done"]', { state: "attached" });
      await page.waitForSelector(".stats-chart-limit", { state: "attached", timeout: 15_000 });
      if (label === "1280") {
        expect(await page.locator(".stats-chart-limit-label").textContent()).toBe("Limit 48\u00a0MiB");
        expect(await page.locator(".stats-chart-info .stats-chart-latest").textContent()).toEndWith("of 48\u00a0MiB");
        // Switching to MiB keeps the line and the words.
        await page.click('.stats-unit-toggle button:has-text("MiB")');
        expect(await page.locator(".stats-chart-limit-label").textContent()).toBe("Limit 48\u00a0MiB");
      }
      await page.waitForTimeout(3500);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/memory-limit-stats-${label}.png`, fullPage: true });
      await page.close();
    }

    expect((await api.post(`${base}/proxy/daemon/server/${id}/console`, { data: "grow" })).status()).toBe(204);
    for (const [context, label] of shots) {
      const page = await context.newPage();
      await page.goto(`${base}/server/${id}`);
      await page.waitForSelector('[data-island="ServerConsole"][data-hydrated="done"]');
      // The kill's own line comes first (the crash's cause, said after it, names the limit too).
      const line = page.locator(".console-line", { hasText: "48 MiB" }).first();
      await line.waitFor({ timeout: 30_000 });
      if (label === "1280") {
        expect(await line.textContent()).toBe("DAEMONthe server was ended by its memory limit: it needed more than 48 MiB");
        expect(await line.locator(".console-chip").count()).toBe(1);
      }
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/memory-limit-console-${label}.png` });
      await context.close();
    }
  }, 120_000);
});
