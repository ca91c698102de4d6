// Choosing among a template's images when adding a server (an egg's docker_images), in
// Chromium at 1366 and 390 px, without script: the Add server form offers the images of the
// docker environment, the chosen one is the server's, and one that is not offered is refused
// (a non-administrator may only pick among them; test/security/egg-run.test.ts has the attacks).
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile } from "./helpers/browser-panel";
import { echoTemplate } from "./helpers/node";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const SHOTS = process.env.KILN_SHOTS;
const IMAGES = [{ display: "Java 21", image: "kiln-test/egg-runtime" }, { display: "Busybox", image: "kiln-test/busybox" }];

describe.if(enabled)("the image choice on Add server", () => {
  for (const viewport of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
    test(`at ${viewport.width} px, without script: offered, chosen, kept`, async () => {
      const context = await browser.newContext({ viewport, javaScriptEnabled: false });
      expect((await context.request.post(`${base}/auth/login`, { data: BROWSER_ADMIN })).status()).toBe(200);
      const environment = { type: "docker", image: IMAGES[0]!.image, images: IMAGES, conventions: "egg" };
      expect((await context.request.put(`${base}/api/templates/imaged`, { data: { ...echoTemplate(), environment, supportedEnvironments: [environment] } })).status()).toBeLessThan(300);
      const page = await context.newPage();
      await page.goto(`${base}/addserver?template=imaged`);
      const options = await page.locator('select[name="image"] option').allTextContents();
      expect(options).toEqual(["Java 21 (kiln-test/egg-runtime)", "Busybox (kiln-test/busybox)"]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/addserver-images-${viewport.width}.png`, fullPage: true });
      await page.fill('input[name="name"]', `imaged ${viewport.width}`);
      await page.selectOption('select[name="image"]', "kiln-test/busybox");
      await Promise.all([page.waitForURL(/\/server\/[0-9a-f]+$/), page.click('select[name="image"] >> xpath=ancestor::form//button[@type="submit"]')]);
      const id = page.url().split("/").pop()!;
      const definition = await (await context.request.get(`${base}/proxy/daemon/server/${id}`)).json();
      expect(definition.environment).toMatchObject({ type: "docker", image: "kiln-test/busybox", conventions: "egg" });
      await context.close();
    }, 60_000);
  }
});
