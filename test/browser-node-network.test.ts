// The node's page in a real browser (Chromium) when the node cannot give its servers networks of
// their own: the warning says what it means and what to install, at a laptop's and a phone's width
// and in Arabic (right to left). Screenshots for a person to look at (KILN_SHOTS).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { fileBrowser, steadyStaticFiles } from "./helpers/browser";
import { startTestNode, type TestNode } from "./helpers/node";
import { panelWithNode, type PanelWithNode } from "./helpers/panel-node";
import { checkNodes } from "../server/node-heartbeat";

const enabled = hasChromium();
const SHOTS = process.env.KILN_SHOTS;
let node: TestNode;
let rig: PanelWithNode;
let browser: Browser;
let server: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  if (!enabled) return;
  node = await startTestNode({ isolation: { nftPath: "/nonexistent/nft" } });
  rig = await panelWithNode(node);
  await checkNodes(rig.panel.db);
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => rig.panel.app.fetch(request) });
  browser = steadyStaticFiles(await fileBrowser());
}, 60_000);
afterAll(async () => {
  if (!enabled) return;
  await browser.close();
  server.stop(true);
  await node.stop();
});

describe.if(enabled)("a node whose servers share its network", () => {
  for (const [label, viewport, locale] of [["1280", { width: 1280, height: 900 }, null], ["390", { width: 390, height: 844 }, null], ["ar-1280", { width: 1280, height: 900 }, "ar_SA"]] as const) {
    test(`its page warns, at ${label}`, async () => {
      const context = await browser.newContext({ viewport });
      const base = `http://localhost:${server.port}`;
      await context.addCookies([{ name: "kiln", value: rig.admin.token, url: base }, ...(locale ? [{ name: "kiln_locale", value: locale, url: base }] : [])]);
      const page = await context.newPage();
      const response = await page.goto(`${base}/node/${rig.nodeId}`);
      expect(response?.status()).toBe(200);
      const warning = page.locator('[data-testid="network-warning"]');
      await warning.waitFor();
      if (!locale) expect(await warning.textContent()).toContain("Servers on this node share its network");
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/node-network-warning-${label}.png` });
      await context.close();
    }, 60_000);
  }
});
