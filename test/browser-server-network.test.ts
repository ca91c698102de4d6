// "Best node" and the Network tab in a real browser (Chromium) against a real `kiln panel` and its
// local node with a pool of ports: a server made on the add-server page with Best node lands on
// its page saying where it went and why; on its Network tab a chosen port is added and made
// primary. Screenshots (KILN_SHOTS) of the add-server page, the placed server and the Network tab
// at 1280 and 390 px and in Arabic.
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

/** The echo template with a port variable, which the server's allocations fill. */
const portedEcho = () => ({ ...echoTemplate(), data: { ...echoTemplate().data, port: { display: "Port", type: "integer", value: 25565, required: true, userEdit: false } } });

describe.skipIf(!enabled)("Best node and the Network tab in the browser", () => {
  let serverId: string;
  let placedUrl: string;

  test("Best node on the add-server page places the server; its page says where and why", async () => {
    const page = await browser.newPage();
    await logInAsAdmin(page, base);
    expect((await page.request.put(`${base}/api/templates/echo`, { data: portedEcho() })).status()).toBe(200);
    const nodes = (await (await page.request.get(`${base}/api/nodes`)).json()) as { id: number }[];
    expect((await page.request.post(`${base}/api/nodes/${nodes[0]!.id}/allocations`, { data: { ports: "31500-31504", alias: "play.example.com" } })).status()).toBe(201);
    expect((await page.request.post(`${base}/api/nodes/${nodes[0]!.id}/allocations`, { data: { ip: "127.0.0.1", ports: "31600" } })).status()).toBe(201);

    await page.goto(`${base}/addserver?template=echo`);
    const form = page.locator('form[data-testid="create-server"]');
    // The tags field shows with Best node only.
    expect(await form.locator("input[name=constraints]").isVisible()).toBe(false);
    await form.locator("select[name=node]").selectOption("auto");
    expect(await form.locator("input[name=constraints]").isVisible()).toBe(true);
    await form.locator("input[name=name]").fill("Placed Echo");
    await form.locator("button[type=submit]").click();
    await page.waitForURL(/\/server\/[0-9a-f]{8}\?placed=/);
    placedUrl = page.url();
    serverId = new URL(placedUrl).pathname.split("/").pop()!;
    expect(await page.locator('[data-testid="placement-notice"]').textContent()).toMatch(/^Placed on \S+: [\d.]+ [kMGT]?B memory free/);
    await page.close();
  });

  test("the Network tab: a chosen port is added, then made primary", async () => {
    const page = await browser.newPage();
    await logInAsAdmin(page, base);
    await page.goto(`${base}/server/${serverId}`);
    await page.click('.server-tabs a[data-hotkey="t n"]');
    await page.waitForURL(/tab=network/);
    const rows = page.locator('[data-testid="allocation"] code');
    expect(await rows.allTextContents()).toEqual(["play.example.com:31500"]);
    await page.locator('[data-testid="network-add"] select[name=allocationId]').selectOption({ label: "127.0.0.1:31600" });
    await page.locator('[data-testid="network-add"] button[type=submit]').click();
    await page.waitForURL(/tab=network$/);
    expect(await page.locator(".toast").textContent()).toBe("Port added");
    expect(await rows.allTextContents()).toEqual(["play.example.com:31500", "127.0.0.1:31600"]);
    await page.locator('[data-testid="allocation"]:has-text("31600") [data-testid="make-primary"]').click();
    await page.waitForURL(/tab=network$/);
    expect(await rows.allTextContents()).toEqual(["127.0.0.1:31600", "play.example.com:31500"]);
    expect(await page.locator('[data-testid="allocation"][data-primary] code').textContent()).toBe("127.0.0.1:31600");
    // The server's address follows the primary.
    expect(await page.locator(".server-meta code").first().textContent()).toEndWith(":31600");
    await page.close();
  });

  test("screenshots: the add-server page with Best node, the placed server and the Network tab; nothing wider than a phone", async () => {
    for (const variant of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, variant.viewport, variant.locale, BROWSER_ADMIN);
      const page = await context.newPage();
      await page.goto(`${base}/addserver?template=echo`);
      await page.locator('form[data-testid="create-server"] select[name=node]').selectOption("auto");
      await shoot(page, `addserver-best-node-${variant.suffix}`);
      await page.goto(placedUrl);
      // With more than one node the notice lists the others, folded: open for the picture.
      const others = page.locator('[data-testid="placement-notice"] details summary');
      if ((await others.count()) > 0) await others.click();
      await shoot(page, `server-placed-${variant.suffix}`);
      await page.goto(`${base}/server/${serverId}?tab=network`);
      await page.locator('[data-testid="network"]').waitFor();
      await shoot(page, `server-network-${variant.suffix}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await context.close();
    }
  });
});
