// Ready markers in a real browser (Chromium): a server whose template names a ready
// marker shows "Starting" (an amber dot, no Start button, Stop available) from the start until
// the marker appears on its console, then "Online"; the server list shows the same. Screenshots
// at 1366 and 390 px are written for a person to look at (KILN_SHOTS).
import { describe, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile } from "./helpers/browser-panel";
import { shotContext } from "./helpers/screenshots";
import { echoTemplate, eventually } from "./helpers/node";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const SHOTS = process.env.KILN_SHOTS;

/** The marker comes once a "go" line reaches the process, so the test decides when it is ready. */
const TEMPLATE = echoTemplate({
  command: "sh -c 'echo booting; while read l; do [ \"$l\" = go ] && echo \"Server ready in 1.0s\"; echo \"got $l\"; [ \"$l\" = quit ] && exit 0; done'",
  readyMarkers: ["regex:^Server ready in \\d+\\.\\d+s$"],
});

async function readyServer(context: BrowserContext, name: string): Promise<string> {
  const api = context.request;
  expect((await api.put(`${base}/api/templates/ready`, { data: TEMPLATE })).status()).toBeLessThan(300);
  const nodes = await (await api.get(`${base}/api/nodes`)).json();
  const created = await api.post(`${base}/api/servers`, { data: { name, node: nodes[0].id, template: "ready", environment: { type: "standard" } } });
  return (await created.json()).id;
}

describe.if(enabled)("a server with a ready marker", () => {
  for (const viewport of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
    test(`at ${viewport.width} px: Starting until the marker, then Online, on the server page and in the list`, async () => {
      const context = await shotContext(browser, base, viewport, null, BROWSER_ADMIN);
      const page = await context.newPage();
      const id = await readyServer(context, `Ready ${viewport.width}`);
      await page.goto(`${base}/server/${id}`);
      await page.waitForSelector('[data-island="ServerControls"][data-hydrated="done"]');
      await page.waitForSelector('.server-status-dot[data-status="offline"]');
      expect((await context.request.post(`${base}/proxy/daemon/server/${id}/start`)).status()).toBe(202);

      await page.waitForSelector('.server-status-dot[data-status="starting"]');
      expect(await page.getAttribute(".server-status-dot", "aria-label")).toBe("Starting");
      expect(await page.locator('.server-controls [data-action="start"]').count()).toBe(0);
      expect(await page.locator('.server-controls [data-action="stop"]').isDisabled()).toBe(false);
      // "Starting" covers the pre-start steps too; once its process runs, the server is booting
      // (running, its marker not seen yet) until the marker.
      const status = () => context.request.get(`${base}/proxy/daemon/server/${id}/status`).then((r) => r.json());
      await eventually(async () => (await status()).running === true, 10_000, "the process");
      expect(await status()).toEqual({ running: true, installing: false, starting: true });
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/ready-starting-${viewport.width}.png` });

      const list = await context.newPage();
      await list.goto(`${base}/server?q=${encodeURIComponent(`Ready ${viewport.width}`)}`);
      await list.waitForSelector(`[data-server-row="${id}"] .server-status-dot[data-status="starting"]`);
      if (SHOTS) await list.screenshot({ path: `${SHOTS}/ready-list-${viewport.width}.png` });

      expect((await context.request.post(`${base}/proxy/daemon/server/${id}/console`, { data: "go" })).status()).toBe(204);
      await page.waitForSelector('.server-status-dot[data-status="online"]', { timeout: 10_000 });
      expect(await page.locator('.server-controls [data-action="start"]').count()).toBe(0);
      await list.reload();
      await list.waitForSelector(`[data-server-row="${id}"] .server-status-dot[data-status="online"]`);
      expect((await context.request.post(`${base}/proxy/daemon/server/${id}/stop?wait=true`)).status()).toBe(204);
      await page.waitForSelector('.server-status-dot[data-status="offline"]');
      await context.close();
    }, 60_000);
  }
});
