// Why a server stopped, on its page in a real browser (Chromium): a server whose process fails to
// bind a port it holds itself shows the card above the console (cause, fix, where it was seen),
// live as the crash is named, and the card goes at the next start. Screenshots at 1280 and 390 px
// and in Arabic (right to left) are written for a person to look at (KILN_SHOTS).
import { describe, expect, test } from "bun:test";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile } from "./helpers/browser-panel";
import { SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { echoTemplate } from "./helpers/node";
import type { Browser } from "playwright-core";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

/** The first run binds 27017 twice (EADDRINUSE); later runs, once the marker exists, keep running. */
const TEMPLATE = echoTemplate({
  command: `sh -c '[ -f ran ] && { echo running fine; sleep 60; exit 0; }; touch ran; node -e "const n=require(\\"net\\"); n.createServer().listen(27017, \\"127.0.0.1\\", () => n.createServer().listen(27017, \\"127.0.0.1\\"))"'`,
  stop: undefined,
});

describe.if(enabled)("the crash card", () => {
  test("a port in use is named above the console until the next start", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, BROWSER_ADMIN);
    const api = setup.request;
    expect((await api.put(`${base}/api/templates/binder`, { data: { ...TEMPLATE, install: [] } })).status()).toBeLessThan(300);
    const nodes = await (await api.get(`${base}/api/nodes`)).json();
    const created = await api.post(`${base}/api/servers`, { data: { name: "Binder", node: nodes[0].id, template: "binder", environment: { type: "standard" } } });
    expect(created.status()).toBe(201);
    const { id } = await created.json();

    const page = await setup.newPage();
    await page.goto(`${base}/server/${id}`);
    await page.waitForSelector('[data-island="CrashCause"][data-hydrated="done"]', { state: "attached" });
    expect(await page.locator(".crash-cause").count()).toBe(0);
    await shoot(page, "crash-cause-none-1280");
    await api.post(`${base}/proxy/daemon/server/${id}/start?wait=true`);
    const card = page.locator(".crash-cause");
    await card.waitFor({ timeout: 20_000 });
    expect(await card.getAttribute("data-cause")).toBe("portInUse");
    expect(await card.locator(".crash-cause-text").textContent()).toBe("its port is already in use: port 27017 is taken");
    expect(await card.locator(".crash-cause-fix").textContent()).toBe("What to do stop whatever else uses the port, or give this server another port");
    expect(await card.locator(".crash-cause-where").textContent()).toMatch(/^Seen in the server's output, line \d+ from the end \(Kiln's own lines not counted\)$/);

    for (const variant of SHOT_VARIANTS) {
      const context = variant.suffix === "1280" ? setup : await shotContext(browser, base, variant.viewport, variant.locale, BROWSER_ADMIN);
      const shotPage = variant.suffix === "1280" ? page : await context.newPage();
      if (shotPage !== page) {
        await shotPage.goto(`${base}/server/${id}`);
        await shotPage.locator(".crash-cause").waitFor({ timeout: 20_000 });
      }
      await shotPage.waitForTimeout(500);
      await shoot(shotPage, `crash-cause-${variant.suffix}`);
      if (shotPage !== page) await context.close();
    }

    // The next start clears it, live.
    await api.post(`${base}/proxy/daemon/server/${id}/start?wait=true`);
    await card.waitFor({ state: "detached", timeout: 20_000 });
    await api.post(`${base}/proxy/daemon/server/${id}/kill?wait=true`);
    await setup.close();
  }, 120_000);
});
