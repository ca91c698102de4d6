// The Players tab with long lists in a real browser (Chromium), without script: each list shows
// one page with its total, a pager and a search (plain GET links and forms, each list keeping its
// own page and search); a list file of more entries than the node reads says so in its card.
// Screenshots at 1280 and 390 px and in Arabic (KILN_SHOTS).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { APIRequestContext, Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile } from "./helpers/browser-panel";
import { SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { echoTemplate } from "./helpers/node";
import { TAB_PAGE_SIZE } from "../server/services/players/tab";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const LONG = 1234;
const range = Array.from({ length: LONG }, (_, i) => i);
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
const ban = { created: "2026-01-02 03:04:05 +0000", source: "Kiln", expires: "forever" };
const tiny = '{"name":"a"},';
const FILES: Record<string, string> = {
  "whitelist.json": JSON.stringify(range.map((i) => ({ uuid: uuid(i), name: `Player_${i}` }))),
  "ops.json": JSON.stringify(range.map((i) => ({ uuid: uuid(i), name: `Op_${i}`, level: 4, bypassesPlayerLimit: false }))),
  // More entries than the node reads: its card says so.
  "banned-players.json": `[${tiny.repeat(150_000).slice(0, -1)}]`,
  "banned-ips.json": JSON.stringify(range.map((i) => ({ ip: `10.0.${Math.floor(i / 256)}.${i % 256}`, ...ban, reason: i % 3 ? "spam bots" : "تجاوز الحد المسموح به من الرسائل" }))),
  "server.properties": "white-list=true\n",
};

/** One list's card, cut from the whole page (an element shot would have the sticky top bar over its head). */
async function shootCard(page: Page, list: string, name: string): Promise<void> {
  if (!process.env.KILN_SHOTS) return;
  const box = await page.locator(`[data-testid="players-${list}"]`).boundingBox();
  const top = await page.evaluate(() => window.scrollY);
  if (box) await page.screenshot({ path: join(process.env.KILN_SHOTS, `${name}.png`), fullPage: true, clip: { ...box, y: box.y + top } });
}

const upload = (api: APIRequestContext, id: string, name: string, buffer: Buffer) => api.put(`${base}/proxy/daemon/server/${id}/file/${name}`, { multipart: { file: { name, mimeType: "application/octet-stream", buffer } } });

describe.if(enabled)("the Players tab with long lists", () => {
  test("a page of each list, its pager and search without script; a list too long says why", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, BROWSER_ADMIN, { javaScriptEnabled: false });
    const api = setup.request;
    const template = { ...echoTemplate({ command: "sh fake-minecraft.sh", stop: "stop" }), name: "mc-standin", display: "Minecraft stand-in", type: "minecraft-java", install: [] };
    expect((await api.put(`${base}/api/templates/mc-standin`, { data: template })).status()).toBeLessThan(300);
    const nodes = await (await api.get(`${base}/api/nodes`)).json();
    const created = await api.post(`${base}/api/servers`, { data: { name: "Crowded", node: nodes[0].id, template: "mc-standin", environment: { type: "standard" } } });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    for (const [name, text] of Object.entries(FILES)) expect((await upload(api, id, name, Buffer.from(text))).status()).toBeLessThan(300);

    const page = await setup.newPage();
    await page.goto(`${base}/server/${id}?tab=players`);
    const whitelist = page.locator('[data-testid="players-whitelist"]');
    expect(await whitelist.locator('[data-testid="player-entry"]').count()).toBe(TAB_PAGE_SIZE);
    expect(await whitelist.locator('[data-testid="players-total"]').textContent()).toBe("1,234");
    expect(await page.locator('[data-testid="players-bans"] .alert').first().textContent()).toContain("holds more entries than Kiln reads");
    // Next page of the whitelist by its plain link, then a search in the operators' card: the
    // whitelist stays on its page.
    await whitelist.locator(".pager a").first().click();
    await page.waitForURL(/whitelist-page=2/);
    expect(await page.locator('[data-testid="players-whitelist"]').textContent()).toContain(`Player_${TAB_PAGE_SIZE}`);
    await page.locator('[data-testid="players-search-ops"] input[type="search"]').fill("op_12");
    await page.locator('[data-testid="players-search-ops"] button').click();
    await page.waitForURL(/ops-search=op_12/);
    expect(page.url()).toContain("whitelist-page=2");
    expect(await page.locator('[data-testid="players-ops"] [data-testid="player-entry"]').count()).toBe(Math.min(TAB_PAGE_SIZE, 1 + 10 + 34));

    for (const variant of SHOT_VARIANTS) {
      const context = variant.suffix === "1280" ? setup : await shotContext(browser, base, variant.viewport, variant.locale, BROWSER_ADMIN, { javaScriptEnabled: false });
      const shotPage = variant.suffix === "1280" ? page : await context.newPage();
      await shotPage.goto(`${base}/server/${id}?tab=players&ip-bans-page=3&ops-search=op_12`);
      await shoot(shotPage, `player-lists-${variant.suffix}`);
      for (const list of ["whitelist", "ops", "bans", "ip-bans"]) await shootCard(shotPage, list, `player-lists-${list}-${variant.suffix}`);
      if (shotPage !== page) await context.close();
    }
    await setup.close();
  }, 120_000);
});
