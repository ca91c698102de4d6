// Moving a server and balancing a node in a real browser (Chromium) against a real `kiln panel`
// and its local node, with a second node that does not answer: the Admin tab's move form sends the
// server there, the move fails (the node is away) and the tab says so with the server where it was;
// the local node, set to draining, offers Evacuate on its Balance card. Screenshots (KILN_SHOTS) of
// the Admin tab's move card and the node page's Balance card at 1280 and 390 px and in Arabic.
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, logInAsAdmin } from "./helpers/browser-panel";
import { SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { echoTemplate } from "./helpers/node";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

describe.skipIf(!enabled)("moving and balancing in the browser", () => {
  test("a move to a node that is away fails on the Admin tab, the server stays; a draining node offers Evacuate", async () => {
    const page = await browser.newPage();
    await logInAsAdmin(page, base);
    expect((await page.request.put(`${base}/api/templates/echo`, { data: echoTemplate() })).status()).toBe(200);
    const [local] = (await (await page.request.get(`${base}/api/nodes`)).json()) as { id: number; name: string }[];
    const away = await page.request.post(`${base}/api/nodes`, { data: { name: "node-away", publicHost: "away.example.com", publicPort: 8443, privateHost: "127.0.0.1", privatePort: 9, sftpPort: 5657 } });
    expect(away.status()).toBe(201);
    const made = await page.request.post(`${base}/api/servers`, { data: { name: "Moving Echo", node: local!.id, template: "echo", environment: { type: "standard" } } });
    expect(made.status()).toBe(201);
    const { id } = (await made.json()) as { id: string };

    await page.goto(`${base}/server/${id}?tab=admin`);
    const card = page.locator('[data-testid="server-transfer"]');
    await card.locator("select[name=node]").selectOption({ label: "node-away" });
    await card.locator("button[type=submit]").click();
    await page.waitForURL(/tab=admin/);
    // The move ends quickly (the node does not answer): the card says so, the server is where it was.
    await page.waitForFunction(async (url) => ((await (await fetch(url)).json()) as { state: string }).state === "failed", `${base}/api/servers/${id}/transfer`, { timeout: 30_000 });
    await page.goto(`${base}/server/${id}?tab=admin`);
    expect(await card.locator(".alert-error").textContent()).toContain("node-away");
    expect(((await (await page.request.get(`${base}/api/servers/${id}`)).json()) as { server: { nodeId: number } }).server.nodeId).toBe(local!.id);

    expect((await page.request.put(`${base}/api/nodes/${local!.id}`, { data: { ...(await (await page.request.get(`${base}/api/nodes/${local!.id}`)).json()), draining: true } })).status()).toBe(200);
    await page.goto(`${base}/node/${local!.id}`);
    await page.locator(`[data-testid="node-balance"] form[action="/node/${local!.id}/evacuate#balance"]`).waitFor();

    for (const variant of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, variant.viewport, variant.locale, BROWSER_ADMIN);
      const shot = await context.newPage();
      await shot.goto(`${base}/server/${id}?tab=admin`);
      await shoot(shot, `server-move-${variant.suffix}`);
      await shot.goto(`${base}/node/${local!.id}`);
      await shoot(shot, `node-balance-${variant.suffix}`);
      await context.close();
    }
    expect((await page.request.put(`${base}/api/nodes/${local!.id}`, { data: { ...(await (await page.request.get(`${base}/api/nodes/${local!.id}`)).json()), draining: false } })).status()).toBe(200);
    await page.close();
  }, 120_000);
});
