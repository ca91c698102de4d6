// The Players tab in a real browser (Chromium), against a real panel and node running a process
// that stands in for a Minecraft console: the online list from the console's `list`, a kick with
// a reason and a whitelist add through the tab's plain forms (each confirmed from the console's
// answer, then a toast). Screenshots at 1280 and 390 px and in Arabic (KILN_SHOTS).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext, Browser } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile } from "./helpers/browser-panel";
import { SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { echoTemplate } from "./helpers/node";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const SCRIPT = readFileSync(join(import.meta.dir, "fixtures", "minecraft-console", "fake-minecraft.sh"));
const FILES: Record<string, string> = {
  "whitelist.json": JSON.stringify([{ uuid: "8667ba71-b85a-4004-af54-457a9734eed7", name: "Steve" }, { uuid: "1c3a6d4e-7b3f-4a43-9a8f-0e3c7d0b1a22", name: "Alex" }]),
  "ops.json": JSON.stringify([{ uuid: "8667ba71-b85a-4004-af54-457a9734eed7", name: "Steve", level: 4, bypassesPlayerLimit: false }]),
  "banned-players.json": JSON.stringify([{ uuid: "3f1c2b8a-5d6e-4f70-8a9b-0c1d2e3f4a5b", name: "Griefer", created: "2026-01-02 03:04:05 +0000", source: "Kiln", expires: "forever", reason: "broke the spawn" }]),
  "banned-ips.json": JSON.stringify([{ ip: "203.0.113.7", created: "2026-01-02 03:04:05 +0000", source: "Kiln", expires: "forever", reason: "spam bots" }]),
  "server.properties": "white-list=true\n",
};

const upload = (api: APIRequestContext, id: string, name: string, buffer: Buffer) => api.put(`${base}/proxy/daemon/server/${id}/file/${name}`, { multipart: { file: { name, mimeType: "application/octet-stream", buffer } } });

describe.if(enabled)("the Players tab", () => {
  test("online players, kick and whitelist through the tab's forms", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, BROWSER_ADMIN);
    const api = setup.request;
    const template = { ...echoTemplate({ command: "sh fake-minecraft.sh", stop: "stop" }), name: "mc-standin", display: "Minecraft stand-in", type: "minecraft-java", install: [] };
    expect((await api.put(`${base}/api/templates/mc-standin`, { data: template })).status()).toBeLessThan(300);
    const nodes = await (await api.get(`${base}/api/nodes`)).json();
    const created = await api.post(`${base}/api/servers`, { data: { name: "Survival", node: nodes[0].id, template: "mc-standin", environment: { type: "standard" } } });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    expect((await upload(api, id, "fake-minecraft.sh", SCRIPT)).status()).toBeLessThan(300);
    for (const [name, text] of Object.entries(FILES)) expect((await upload(api, id, name, Buffer.from(text))).status()).toBeLessThan(300);

    const page = await setup.newPage();
    // Stopped: the lists from the files, nobody online.
    await page.goto(`${base}/server/${id}?tab=players`);
    expect(await page.locator('[data-testid="players-whitelist"] [data-testid="player-entry"]').count()).toBe(2);
    expect(await page.locator('[data-testid="players-online"]').textContent()).toContain("The server is stopped");
    await shoot(page, "players-stopped-1280");

    expect((await api.post(`${base}/proxy/daemon/server/${id}/start?wait=true`)).status()).toBe(204);
    await page.goto(`${base}/server/${id}?tab=players`);
    expect(await page.locator('[data-testid="online-player"]').count()).toBe(2);
    const alex = page.locator('[data-testid="online-player"]', { hasText: "Alex" });
    await alex.locator('input[name="reason"]').fill("back in five");
    await alex.locator('button:has-text("Kick")').click();
    await page.locator(".toast", { hasText: "The player was kicked." }).waitFor();
    await page.locator('[data-testid="players-add-whitelist"] input[name="name"]').fill("Herobrine");
    await page.locator('[data-testid="players-add-whitelist"] button').click();
    await page.locator(".toast", { hasText: "Done" }).waitFor();
    const log = await (await api.get(`${base}/proxy/daemon/server/${id}/file/commands.log`)).text();
    expect(log.split("\n").filter((line) => line && line !== "list")).toEqual(["kick Alex back in five", "whitelist add Herobrine"]);

    for (const variant of SHOT_VARIANTS) {
      const context = variant.suffix === "1280" ? setup : await shotContext(browser, base, variant.viewport, variant.locale, BROWSER_ADMIN);
      const shotPage = variant.suffix === "1280" ? page : await context.newPage();
      await shotPage.goto(`${base}/server/${id}?tab=players`);
      await shotPage.locator('[data-testid="online-player"]').first().waitFor();
      await shoot(shotPage, `players-${variant.suffix}`);
      if (shotPage !== page) await context.close();
    }
    await api.post(`${base}/proxy/daemon/server/${id}/kill?wait=true`);
    await setup.close();
  }, 120_000);
});
