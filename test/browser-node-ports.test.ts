// The node page's Ports card, tags and draining, and bulk power in Chromium against a real
// `kiln panel` and its local node: an administrator adds ranges to the pool and tags the node
// through the page's forms, an overlap is refused by the add form, two servers take ports and
// are stopped at once; the page stays within the screen at laptop and phone widths and right to
// left. Screenshots (KILN_SHOTS) of the node page in each.
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, createEchoServer, logInAsAdmin } from "./helpers/browser-panel";
import { SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { sidewaysOverflow } from "./helpers/browser";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

/** Adds `ports` to the pool through the Ports card's form. */
async function addPorts(page: Page, ports: string, alias = "") {
  const form = page.locator('[data-testid="pool-add"]');
  await form.locator("input[name=ports]").fill(ports);
  await form.locator("input[name=alias]").fill(alias);
  await form.locator("button[type=submit]").click();
  await page.waitForLoadState();
}

describe.if(enabled)("a node's ports, tags and bulk power in the browser", () => {
  test("ports and tags are added through the page; an overlap is refused by its form; two servers are stopped at once", async () => {
    const page = await browser.newPage();
    await logInAsAdmin(page, base);
    const nodes = (await (await page.request.get(`${base}/api/nodes`)).json()) as { id: number }[];
    const nodeId = nodes[0]!.id;
    await page.goto(`${base}/node/${nodeId}`);
    expect(await page.textContent('[data-testid="pool-empty"]')).toContain("The pool is empty");

    await addPorts(page, "25565-25566");
    expect(page.url()).toBe(`${base}/node/${nodeId}#ports`);
    expect(await page.textContent(".toasts")).toContain("Ports added to the pool");
    await addPorts(page, "30000-30099, 27015", "play.example.com");
    expect(await page.locator('[data-testid="pool-table"] tr[data-run="30000-30099"]').textContent()).toContain("100 free");

    await addPorts(page, "30050");
    expect(await page.locator('[data-testid="pool-add"]').textContent()).toContain("Port 30050 is already in this node's pool (on 0.0.0.0)");
    expect(await page.inputValue('[data-testid="pool-add"] input[name=ports]')).toBe("30050");

    await page.goto(`${base}/node/${nodeId}`);
    await page.fill("input[name=tags]", "location=eu, ssd");
    await page.check("input[name=draining]");
    await page.click(".node-form button[type=submit]");
    await page.waitForURL(`${base}/node/${nodeId}`);
    expect(await page.locator(".node-title [data-tag]").allTextContents()).toEqual(["location=eu", "ssd"]);
    expect(await page.locator(".node-title [data-draining]").count()).toBe(1);

    // Two servers take the first free ports; then both are stopped from the node's page.
    await createEchoServer(page, base, "alpha");
    await createEchoServer(page, base, "beta");
    await page.goto(`${base}/node/${nodeId}`);
    expect(await page.locator('[data-testid="pool-table"] tr[data-port="25565"]').textContent()).toMatch(/alpha|beta/);
    await page.locator('[data-testid="node-power"] input[name=servers]').first().check();
    await page.locator('[data-testid="node-power"] input[name=servers]').nth(1).check();
    await page.click('[data-testid="node-power"] button[value=stop]');
    await page.waitForLoadState();
    expect(await page.textContent(".toasts")).toContain("Asked 2 servers to stop");
    await page.close();
  }, 90_000);

  test("screenshots: the node page at 1280 and 390 px and in Arabic, within the screen", async () => {
    for (const variant of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, variant.viewport, variant.locale, BROWSER_ADMIN);
      const page = await context.newPage();
      const nodes = (await (await page.request.get(`${base}/api/nodes`)).json()) as { id: number }[];
      await page.goto(`${base}/node/${nodes[0]!.id}`);
      await page.locator('[data-testid="node-pool"]').waitFor();
      expect(await sidewaysOverflow(page)).toEqual([]);
      await shoot(page, `node-ports-${variant.suffix}`);
      // The add form's refusal, by the form.
      await addPorts(page, "30050");
      await page.locator('[data-testid="pool-add"] [role=alert]').first().waitFor();
      // The answer opens at #ports; a whole-page shot is taken from the top, or the fixed bar lands mid-page.
      await page.evaluate(() => window.scrollTo(0, 0));
      await shoot(page, `node-ports-refused-${variant.suffix}`);
      await page.goto(`${base}/node`);
      await shoot(page, `nodes-tags-${variant.suffix}`);
      await context.close();
    }
  }, 90_000);
});
