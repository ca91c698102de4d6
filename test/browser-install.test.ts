// Install in the control bar, in Chromium against a real panel and its local node: it asks first
// (cancelling sends nothing), lists the files changed since the last install, keeps them by
// default and starts a running server again afterwards; "overwrite" puts the template's files
// back; without script the same dialog posts the choice. Screenshots with KILN_SHOTS.
import { describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, createEchoServer } from "./helpers/browser-panel";
import { LAPTOP, SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

async function readMotd(page: Page, id: string): Promise<string> {
  return (await page.request.get(`${base}/proxy/daemon/server/${id}/file/motd.txt`)).text();
}

async function writeMotd(page: Page, id: string, text: string): Promise<void> {
  const answer = await page.request.put(`${base}/proxy/daemon/server/${id}/file/motd.txt`, { multipart: { file: { name: "motd.txt", mimeType: "text/plain", buffer: Buffer.from(text) } } });
  expect(answer.status()).toBeLessThan(300);
}

async function status(page: Page, id: string): Promise<{ running: boolean; installing: boolean }> {
  return (await page.request.get(`${base}/proxy/daemon/server/${id}/status`)).json();
}

async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}

async function adminPage(viewport = LAPTOP, options: { javaScriptEnabled?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, ...options });
  expect((await context.request.post(`${base}/auth/login`, { data: BROWSER_ADMIN })).status()).toBe(200);
  return { context, page: await context.newPage() };
}

describe.if(enabled)("Install in the control bar", () => {
  test("asks first, lists the changed file, keeps it, and starts the running server again", async () => {
    const { context, page } = await adminPage();
    const id = await createEchoServer(page, base, "Reinstalled");
    expect((await page.request.post(`${base}/proxy/daemon/server/${id}/start?wait=true`)).status()).toBeLessThan(300);
    await writeMotd(page, id, "edited by the host");
    await page.goto(`${base}/server/${id}`);
    await page.waitForSelector('[data-island="ServerControls"][data-hydrated="done"]', { state: "attached" });

    // Cancel sends nothing.
    await page.click('.server-controls summary[data-action="install"]');
    await page.waitForSelector('details.server-install[open] [data-testid="install-changes"]');
    expect(await page.textContent('[data-testid="install-changes"]')).toContain("motd.txt");
    expect(await page.isChecked('details.server-install input[value="true"]')).toBe(true);
    await page.click("details.server-install[open] [data-close-details]");
    await Bun.sleep(500);
    expect(await status(page, id)).toEqual({ running: true, installing: false });

    // Install, keeping: the edit stays and the server runs again.
    await page.click('.server-controls summary[data-action="install"]');
    await page.click("details.server-install[open] [data-confirm-install]");
    await until(async () => (await page.request.get(`${base}/proxy/daemon/server/${id}/console`).then((r) => r.json())).logs.join("").includes("installation finished"), "the install");
    await until(async () => (await status(page, id)).running, "the server to run again");
    expect(await readMotd(page, id)).toBe("edited by the host");

    // Overwrite: the template's file comes back.
    await page.click('.server-controls summary[data-action="install"]');
    await page.waitForSelector('details.server-install[open] [data-testid="install-changes"]');
    await page.check('details.server-install input[value="false"]');
    await page.click("details.server-install[open] [data-confirm-install]");
    await until(async () => (await readMotd(page, id)) === "hello world", "the overwriting install");
    await until(async () => (await status(page, id)).running, "the server to run again");
    await context.close();
  });

  test("without script the dialog opens and posts the choice", async () => {
    const { context, page } = await adminPage(LAPTOP, { javaScriptEnabled: false });
    const id = await createEchoServer(page, base, "Reinstalled without script");
    await writeMotd(page, id, "edited without script");
    await page.goto(`${base}/server/${id}`);
    await page.click('.server-controls summary[data-action="install"]');
    expect(await page.isVisible("details.server-install[open] [data-confirm-install]")).toBe(true);
    await page.check('details.server-install input[value="false"]');
    await page.click("details.server-install[open] [data-confirm-install]");
    await page.waitForURL(`${base}/server/${id}?tab=console`);
    await until(async () => (await readMotd(page, id)) === "hello world", "the overwriting install");
    await context.close();
  });

  test("screenshots of the dialog (laptop, phone, right-to-left)", async () => {
    const { context, page } = await adminPage();
    const id = await createEchoServer(page, base, "Screenshot install");
    await writeMotd(page, id, "edited");
    await context.close();
    for (const { suffix, viewport, locale } of SHOT_VARIANTS) {
      const shotCtx = await shotContext(browser, base, viewport, locale, BROWSER_ADMIN);
      const shotPage = await shotCtx.newPage();
      await shotPage.goto(`${base}/server/${id}`);
      await shotPage.waitForSelector('[data-island="ServerControls"][data-hydrated="done"]', { state: "attached" });
      await shotPage.click('.server-controls summary[data-action="install"]');
      await shotPage.waitForSelector('details.server-install[open] [data-testid="install-changes"]');
      // The dialog lies within the screen.
      const box = (await shotPage.locator("details.server-install[open] .overlay").boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 1);
      await shoot(shotPage, `install-dialog-${suffix}`);
      await shotCtx.close();
    }
  });
});
