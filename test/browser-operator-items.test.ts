// The operator's second pass over the server page, in Chromium against a real panel and its local
// node: create dialogs (New file, New folder: the file manager's own; New task: a server-rendered
// overlay, which the shell focuses) put the caret in their field. Screenshots with KILN_SHOTS.
import { describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, createEchoServer } from "./helpers/browser-panel";
import { LAPTOP } from "./helpers/screenshots";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

async function adminPage(options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: options.viewport ?? LAPTOP, javaScriptEnabled: options.javaScriptEnabled });
  expect((await context.request.post(`${base}/auth/login`, { data: BROWSER_ADMIN })).status()).toBe(200);
  return { context, page: await context.newPage() };
}

/** The name of the focused field, once focus has settled (the dialog opens, then focuses). */
async function focusedName(page: Page): Promise<string | null> {
  await page.waitForFunction(() => document.activeElement instanceof HTMLInputElement, undefined, { timeout: 5_000 }).catch(() => undefined);
  return page.evaluate(() => (document.activeElement instanceof HTMLInputElement ? document.activeElement.name : null));
}

let serverId = "";
async function server(page: Page): Promise<string> {
  if (!serverId) serverId = await createEchoServer(page, base, "Operator items");
  return serverId;
}

describe.if(enabled)("create dialogs put the caret in their field", () => {
  test("New file and New folder in the file manager (the island's dialogs), by click and by hotkey", async () => {
    const { context, page } = await adminPage();
    const id = await server(page);
    await page.goto(`${base}/server/${id}?tab=files`);
    // The first island a fresh panel serves can take long on a busy machine.
    await page.waitForSelector('[data-island="FileManager"][data-hydrated="done"]', { state: "attached", timeout: 60_000 });
    await page.click('summary[data-action="new-file"]');
    expect(await focusedName(page)).toBe("name");
    await page.keyboard.press("Escape");
    await page.click('summary[data-action="new-folder"]');
    expect(await focusedName(page)).toBe("name");
    await page.keyboard.press("Escape");
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    await page.keyboard.type("nd");
    expect(await focusedName(page)).toBe("name");
    await context.close();
  }, 90_000);

  // A server-rendered overlay: the shell puts the caret in its first field.
  test("New task on the tasks tab", async () => {
    const { context, page } = await adminPage();
    const id = await server(page);
    await page.goto(`${base}/server/${id}?tab=tasks`);
    await page.click('[data-testid="task-new"] > summary');
    expect(await focusedName(page)).toBe("name");
    await context.close();
  });
});
