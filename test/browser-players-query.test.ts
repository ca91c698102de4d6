// Players where people look, in a real browser (Chromium) against a real panel process: Debian's
// OpenArena run by Kiln with `query: {type: "openarena"}` (GameDig), a bot added on its console.
// The server list shows 0/12 then 1/12 (the list island's poll, within the node's 15 s query
// plus the list's 5 s poll), the console's vitals show the count and, opened, the bot's name,
// and the stats tab charts players beside CPU and memory. Screenshots (KILN_SHOTS) at 1280 and
// 390 px and in Arabic. (The Minecraft server of test/players-query.test.ts needs this
// checkout's node_modules, which the sandbox of the panel's own node does not show its servers.)
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { hasChromium, partAvailable } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile } from "./helpers/browser-panel";
import { SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { echoTemplate, eventually } from "./helpers/node";
import { freePort } from "./helpers/process";
import type { Browser } from "playwright-core";

const OPENARENA = "/usr/games/openarena-server";
const enabled = hasChromium() && partAvailable("Debian's openarena-server", () => existsSync(OPENARENA));
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

describe.if(enabled)("players in the browser", () => {
  test("the list, the console's vitals and the stats tab show who plays", async () => {
    const setup = await shotContext(browser, base, { width: 1280, height: 900 }, null, BROWSER_ADMIN);
    const api = setup.request;
    const port = await freePort();
    const template = {
      ...echoTemplate({ command: `${OPENARENA} +set net_port \${port} +set dedicated 1 +set sv_maxclients 12 +set sv_hostname kiln-arena +map oa_dm1`, stop: "quit", readyMarkers: ["AAS initialized"] }),
      name: "arena",
      display: "OpenArena",
      install: [],
      data: { port: { display: "Port", desc: "", type: "integer", value: port, required: true, userEdit: false } },
      query: { type: "openarena" },
    };
    expect((await api.put(`${base}/api/templates/arena`, { data: template })).status()).toBeLessThan(300);
    const nodes = await (await api.get(`${base}/api/nodes`)).json();
    const created = await api.post(`${base}/api/servers`, { data: { name: "Arena", node: nodes[0].id, template: "arena", environment: { type: "standard" } } });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    expect((await api.post(`${base}/proxy/daemon/server/${id}/start?wait=true`)).status()).toBe(204);

    const list = await setup.newPage();
    await list.goto(`${base}/server`);
    const cell = list.locator(`[data-server-row="${id}"] [data-live="players"]`);
    await eventually(async () => (await cell.textContent()) === "0/12", 30_000, "0/12 on the list");
    expect((await api.post(`${base}/proxy/daemon/server/${id}/console`, { data: "addbot Sarge" })).status()).toBe(204);
    const added = Date.now();
    await eventually(async () => (await cell.textContent()) === "1/12", 30_000, "1/12 on the list");
    // The node asks every 15 s and the list every 5 s: the worst case is 20 s (and the query's own time).
    expect(Date.now() - added).toBeLessThan(21_000);
    await list.close();

    for (const variant of SHOT_VARIANTS) {
      const context = variant.suffix === "1280" ? setup : await shotContext(browser, base, variant.viewport, variant.locale, setup);
      const page = await context.newPage();
      await page.goto(`${base}/server`);
      // Arabic writes its own digits (١/١٢).
      const count = variant.locale ? /١\/١٢/ : "1/12";
      await page.locator(`[data-server-row="${id}"] [data-live="players"]`, { hasText: count }).waitFor({ timeout: 20_000 });
      await shoot(page, `players-list-${variant.suffix}`);

      await page.goto(`${base}/server/${id}`);
      await page.waitForSelector('[data-island="ServerVitals"][data-hydrated="done"]', { state: "attached" });
      const vital = page.locator('[data-vital="players"]');
      await vital.locator("summary", { hasText: count }).waitFor({ timeout: 20_000 });
      await vital.locator("summary").click();
      await eventually(async () => (await vital.locator("li").allTextContents()).join(",") === "Sarge", 5000, "the name under the count");
      await shoot(page, `players-console-${variant.suffix}`);

      await page.goto(`${base}/server/${id}?tab=stats`);
      await page.waitForSelector('[data-island="ServerStats"][data-hydrated="done"]', { state: "attached" });
      const chart = page.locator(".stats-chart", { hasText: variant.locale ? "" : "Players" }).nth(variant.locale ? 2 : 0);
      await chart.waitFor({ timeout: 20_000 });
      // The chart plots the player once a sample has counted them (one every STATS_INTERVAL_MS): its latest point is off the floor.
      await eventually(async () => (await chart.locator(".stats-chart-dot").evaluate((dot) => (dot as HTMLElement).style.top)) !== "100%", 20_000, "the player on the chart");
      await shoot(page, `players-stats-${variant.suffix}`);
      if (variant.suffix === "1280") expect(await page.locator(".stats-chart").count()).toBe(3);
      await page.close();
      if (context !== setup) await context.close();
    }
    await api.post(`${base}/proxy/daemon/server/${id}/kill?wait=true`);
    await setup.close();
  }, 180_000);
});
