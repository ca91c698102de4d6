// The server screens in Chromium against a real panel and its local node: the control bar
// (no overlay control over it, a double click on the editor's close button does not kill, Kill
// asks, Stop and Kill disabled while stopped), the not-found and no-access pages, the phone
// layout at 390 px, the server list (live status, CPU and memory, search, cards on phones) and
// the console tab (vitals, a dark terminal in every theme, commands echoed, ↑ history).
import { describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile } from "./helpers/browser-panel";
import { echoTemplate } from "./helpers/node";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** A logged-in context (the admin unless told) at a screen size. */
async function session(viewport: { width: number; height: number }, login = BROWSER_ADMIN): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  expect((await context.request.post(`${base}/auth/login`, { data: login })).status()).toBe(200);
  return { context, page: await context.newPage() };
}

let counter = 0;
/** A server from the echo template, started when asked. */
async function server(context: BrowserContext, name: string, running: boolean): Promise<string> {
  const api = context.request;
  await api.put(`${base}/api/templates/echo`, { data: echoTemplate() });
  const nodes = await (await api.get(`${base}/api/nodes`)).json();
  const created = await api.post(`${base}/api/servers`, { data: { name: `${name} ${++counter}`, node: nodes[0].id, template: "echo", environment: { type: "standard" } } });
  const { id } = await created.json();
  if (running) expect((await api.post(`${base}/proxy/daemon/server/${id}/start?wait=true`)).status()).toBeLessThan(300);
  return id;
}

async function running(context: BrowserContext, id: string): Promise<boolean> {
  return (await (await context.request.get(`${base}/proxy/daemon/server/${id}/status`)).json()).running;
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe.if(enabled)("the server page's control bar", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`at ${viewport.width} px no editor control lies over the bar, and double-clicking its close button kills nothing`, async () => {
      const { context, page } = await session(viewport);
      const id = await server(context, "Bar", true);
      await page.goto(`${base}/server/${id}?tab=admin`);
      await page.waitForSelector('[data-island="ServerControls"][data-hydrated="done"]');
      await page.click("details.defedit-details > summary");
      await page.waitForSelector(".defedit-main");
      const bar = (await page.locator(".server-controls").boundingBox())!;
      const controls = page.locator(".defedit-main button, .defedit-main a, .defedit-main input, .defedit-main select, .defedit-main textarea");
      expect(await controls.count()).toBeGreaterThan(3);
      for (const control of await controls.all()) {
        const box = await control.boundingBox();
        if (box) expect(overlaps(box, bar)).toBe(false);
      }
      // A double click on the close button must not reach the bar below and kill the server.
      await page.dblclick('.defedit-main .defedit-head button[aria-label]');
      await page.waitForSelector(".defedit-main", { state: "detached" });
      await page.waitForTimeout(800);
      expect(await running(context, id)).toBe(true);
      await context.close();
    }, 60_000);
  }

  test("Kill asks first (keeping it running sends nothing); Stop and Kill are disabled once stopped", async () => {
    const { context, page } = await session(DESKTOP);
    const id = await server(context, "Killable", true);
    await page.goto(`${base}/server/${id}`);
    await page.waitForSelector('.server-status-dot[data-status="online"]');
    await page.click('.server-controls summary[data-action="kill"]');
    await page.waitForSelector("details.server-kill[open] [data-confirm-kill]");
    // The confirmation is below the bar, not over it.
    const bar = (await page.locator(".server-controls").boundingBox())!;
    const confirm = (await page.locator("[data-confirm-kill]").boundingBox())!;
    expect(confirm.y).toBeGreaterThan(bar.y + bar.height);
    await page.click("details.server-kill[open] [data-close-details]");
    await page.waitForTimeout(500);
    expect(await running(context, id)).toBe(true);
    await page.click('.server-controls summary[data-action="kill"]');
    await page.click("details.server-kill[open] [data-confirm-kill]");
    await page.waitForSelector('.server-status-dot[data-status="offline"]', { timeout: 10_000 });
    expect(await running(context, id)).toBe(false);
    expect(await page.isDisabled('.server-controls button[data-action="stop"]')).toBe(true);
    expect(await page.isDisabled('.server-controls button[data-action="kill"]')).toBe(true);
    expect(await page.isEnabled('.server-controls button[data-action="start"]')).toBe(true);
    await context.close();
  }, 60_000);
});

describe.if(enabled)("error pages", () => {
  test("an unknown server is a not-found page; someone else's server a no-access page", async () => {
    const { context, page } = await session(DESKTOP);
    const response = await page.goto(`${base}/server/ffffffff`);
    expect(response!.status()).toBe(404);
    expect(await page.textContent("main h1")).toBe("Not found");
    expect(await page.textContent("main")).not.toContain("Something went wrong");
    const id = await server(context, "Private", false);
    const email = `viewer${Date.now()}@example.com`;
    await context.request.post(`${base}/api/users`, { data: { email, username: `viewer${Date.now()}`, password: "viewerpassword" } });
    const other = await session(DESKTOP, { email, password: "viewerpassword" });
    const denied = await other.page.goto(`${base}/server/${id}`);
    expect(denied!.status()).toBe(403);
    expect(await other.page.textContent("main h1")).toBe("No access");
    await other.context.close();
    await context.close();
  }, 30_000);
});

describe.if(enabled)("phones at 390 px", () => {
  test("ids and the brand stay on one line, the tabs scroll with a hint, the power buttons take one row", async () => {
    const { context, page } = await session(PHONE);
    const id = await server(context, "A server with a rather long name for a phone", true);
    await page.goto(`${base}/server/${id}`);
    await page.waitForSelector('.server-status-dot[data-status="online"]');
    const lineHeight = async (selector: string) =>
      page.locator(selector).first().evaluate((el) => {
        const style = getComputedStyle(el);
        return { height: el.getBoundingClientRect().height, line: parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.6 };
      });
    for (const selector of [".server-meta code >> nth=1", ".brand span", '[data-testid="server-name"]']) {
      const { height, line } = await lineHeight(selector);
      expect(height).toBeLessThan(line * 1.5);
    }
    const tops = await page.locator(".server-controls > form > button, .server-controls > details > summary").evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    expect(tops.length).toBe(4);
    expect(new Set(tops).size).toBe(1);
    const tabs = await page.locator(".server-tabs").evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, overflow: getComputedStyle(el).overflowX, shadows: getComputedStyle(el).backgroundImage }));
    expect(tabs.scroll).toBeGreaterThan(tabs.client);
    expect(tabs.overflow).toBe("auto");
    expect(tabs.shadows).toContain("radial-gradient");
    // No part of the page is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await page.goto(`${base}/server?q=${id}`);
    expect(await page.locator(`[data-server-row="${id}"] code.muted`).evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(30);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  }, 60_000);
});

describe.if(enabled)("the server list", () => {
  test("live status, CPU and memory from the island; search; a table on wide screens and cards on phones", async () => {
    const { context, page } = await session(DESKTOP);
    const on = await server(context, "Listed running", true);
    const off = await server(context, "Listed stopped", false);
    await page.goto(`${base}/server?q=Listed`);
    expect(await page.locator("[data-server-row]").count()).toBe(2);
    expect(await page.getAttribute(`[data-server-row="${on}"] [data-live="status"]`, "data-status")).toBe("online");
    expect(await page.getAttribute(`[data-server-row="${off}"] [data-live="status"]`, "data-status")).toBe("offline");
    await page.waitForFunction((id) => /%$/.test(document.querySelector(`[data-server-row="${id}"] [data-live="cpu"]`)?.textContent ?? ""), on, { timeout: 15_000 });
    expect(await page.textContent(`[data-server-row="${on}"] [data-live="memory"]`)).toMatch(/[KMG]iB/);
    expect(await page.textContent(`[data-server-row="${off}"] [data-live="cpu"]`)).toBe("—");
    // The search form narrows the list.
    await page.fill('[data-testid="servers-filter"] input[name="q"]', "running");
    await page.click('[data-testid="servers-filter"] button[type="submit"]');
    await page.waitForURL(/q=running/);
    expect(await page.locator("[data-server-row]").count()).toBe(1);
    expect(await page.locator("table.servers-list thead").isVisible()).toBe(true);
    await context.close();

    const phone = await session(PHONE);
    await phone.page.goto(`${base}/server?q=Listed`);
    expect(await phone.page.locator("table.servers-list thead").isVisible()).toBe(false);
    expect(await phone.page.locator(`[data-server-row="${on}"]`).evaluate((el) => getComputedStyle(el).display)).toBe("grid");
    await phone.context.close();
  }, 60_000);
});

describe.if(enabled)("the console tab", () => {
  test("vitals beside the console, a dark terminal in every theme, commands echoed, ↑ brings the last back", async () => {
    const { context, page } = await session(DESKTOP);
    const id = await server(context, "Console", true);
    await page.goto(`${base}/server/${id}`);
    // The first stat comes with the node's next sample; on a machine running other test files at
    // once that took over 15 s.
    await page.waitForFunction(() => /%$/.test(document.querySelector('[data-vital="cpu"]')?.textContent ?? ""), null, { timeout: 45_000 });
    expect(await page.textContent('[data-vital="memory"]')).toMatch(/[KMG]iB/);
    expect(await page.textContent('[data-vital="uptime"]')).toMatch(/\d+ (s|min)/);
    expect(await page.textContent('[data-vital="address"] code')).toBe("localhost");
    // Beside the console on a wide screen.
    const log = (await page.locator(".server-console-log").boundingBox())!;
    const vitals = (await page.locator(".server-vitals-card").boundingBox())!;
    expect(vitals.x).toBeGreaterThan(log.x + log.width);

    for (const theme of ["kiln", "forest", "ocean"]) {
      for (const dark of ["0", "1"]) {
        await context.addCookies([{ name: "kiln_theme", value: theme, url: base }, { name: "kiln_dark", value: dark, url: base }]);
        await context.request.put(`${base}/api/userSettings/preferredTheme`, { data: { value: theme } });
        await context.request.put(`${base}/api/userSettings/dark`, { data: { value: dark === "1" ? "true" : "false" } });
        await page.goto(`${base}/server/${id}`);
        const background = await page.locator(".server-console-log").evaluate((el) => getComputedStyle(el).backgroundColor);
        const [r, g, b] = background.match(/\d+/g)!.map(Number);
        expect(r! + g! + b!).toBeLessThan(120);
      }
    }

    await page.waitForSelector('[data-island="ServerConsole"][data-hydrated="done"]');
    await page.fill(".server-console-input input", "first-command");
    await page.press(".server-console-input input", "Enter");
    await page.waitForFunction(() => document.querySelector(".server-console-log")?.textContent?.includes("› first-command"));
    await page.waitForFunction(() => document.querySelector(".server-console-log")?.textContent?.includes("got first-command"));
    await page.fill(".server-console-input input", "second");
    await page.press(".server-console-input input", "Enter");
    await page.press(".server-console-input input", "ArrowUp");
    expect(await page.inputValue(".server-console-input input")).toBe("second");
    await page.press(".server-console-input input", "ArrowUp");
    expect(await page.inputValue(".server-console-input input")).toBe("first-command");
    // Another tab and back (a new page load): the history is still there.
    await page.goto(`${base}/server/${id}?tab=stats`);
    await page.goto(`${base}/server/${id}`);
    await page.waitForSelector('[data-island="ServerConsole"][data-hydrated="done"]');
    await page.press(".server-console-input input", "ArrowUp");
    expect(await page.inputValue(".server-console-input input")).toBe("second");
    await context.close();
  }, 90_000);
});
