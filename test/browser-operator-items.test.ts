// The operator's second pass over the server page, in Chromium against a real panel and its local
// node: create dialogs (New file, New folder: the file manager's own; New task: a server-rendered
// overlay, which the shell focuses) put the caret in their field; an archive's name opens a menu,
// and Extract asks where and lists what it would replace. Screenshots with KILN_SHOTS.
import { describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, createEchoServer } from "./helpers/browser-panel";
import { LAPTOP, SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { FILE, rawZip } from "../daemon/files/extract-test-archives";

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

const upload = (page: Page, id: string, path: string, bytes: Buffer) => page.request.put(`${base}/proxy/daemon/server/${id}/file/${path}`, { multipart: { file: { name: path.split("/").pop()!, mimeType: "application/octet-stream", buffer: bytes } } });
const read = async (page: Page, id: string, path: string) => (await page.request.get(`${base}/proxy/daemon/server/${id}/file/${path}`)).text();

describe.if(enabled)("archives in the file manager", () => {
  test("an archive's name opens a menu; Extract… asks where, lists what it would replace, then extracts", async () => {
    const { context, page } = await adminPage();
    const id = await server(page);
    expect((await upload(page, id, "pack.zip", rawZip([{ name: "motd.txt", data: "from the pack", mode: FILE }, { name: "mods/new.jar", data: "jar", mode: FILE }]))).status()).toBe(200);
    await page.goto(`${base}/server/${id}?tab=files`);
    await page.waitForSelector('[data-island="FileManager"][data-hydrated="done"]', { state: "attached", timeout: 60_000 });
    await page.click('.files-row[data-name="pack.zip"] a.files-name');
    await page.waitForSelector('[data-testid="files-archive-menu"]');
    expect(await page.locator(".toast").count()).toBe(0);
    await page.click('[data-archive-action="extract"]');
    await page.waitForSelector('[data-testid="files-extract-overwrites"]');
    expect(await page.textContent('[data-testid="files-extract-preview"]')).toContain("It replaces 1 file already there:/motd.txt");
    expect(await read(page, id, "motd.txt")).toBe("hello world");
    // Elsewhere: a folder that is not there yet, nothing replaced.
    await page.fill('[data-testid="files-extract-dialog"] input[name="destination"]', "/unpacked");
    await page.waitForFunction(() => document.querySelector('[data-testid="files-extract-preview"]')?.textContent?.includes("does not exist yet"));
    expect(await page.textContent('[data-testid="files-extract-preview"]')).toContain("Nothing already there is replaced.");
    await page.click("[data-confirm-extract]");
    await page.waitForSelector('.files-row[data-name="unpacked"]', { timeout: 20_000 });
    expect(await read(page, id, "unpacked/motd.txt")).toBe("from the pack");
    expect(await read(page, id, "motd.txt")).toBe("hello world");
    await context.close();
  }, 90_000);

  test("screenshots of the archive menu and the extract dialog (laptop, phone, right to left)", async () => {
    const { context: setup, page: first } = await adminPage();
    expect((await upload(first, await server(first), "pack.zip", rawZip([{ name: "motd.txt", data: "from the pack", mode: FILE }]))).status()).toBe(200);
    await setup.close();
    for (const { suffix, viewport, locale } of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, viewport, locale, BROWSER_ADMIN);
      const page = await context.newPage();
      const id = await server(page);
      await page.goto(`${base}/server/${id}?tab=files`);
      await page.waitForSelector('[data-island="FileManager"][data-hydrated="done"]', { state: "attached", timeout: 60_000 });
      await page.click('.files-row[data-name="pack.zip"] a.files-name');
      await page.waitForSelector('[data-testid="files-archive-menu"]');
      await shoot(page, `files-archive-menu-${suffix}`);
      await page.click('[data-archive-action="extract"]');
      await page.waitForSelector('[data-testid="files-extract-overwrites"]');
      const box = (await page.locator('[data-testid="files-extract-dialog"]').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 1);
      await shoot(page, `files-extract-${suffix}`);
      await context.close();
    }
  }, 120_000);
});
