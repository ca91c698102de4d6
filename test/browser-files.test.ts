// The files tab in a real browser against a real panel and its local node: create a folder and a
// file, edit the file in CodeMirror and save, reload and see the text, upload with the progress
// bar, archive a folder and see its zip, delete the folder behind the confirmation overlay,
// extract the zip and see the folder come back, and the hotkeys of the toolbar.
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, createEchoServer, logInAsAdmin, browserPanelForFile } from "./helpers/browser-panel";

const enabled = hasChromium();
const ADMIN = BROWSER_ADMIN;
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const logIn = (page: Page) => logInAsAdmin(page, base);

const createServer = (page: Page, name: string) => createEchoServer(page, base, name);

const row = (name: string) => `.files-row[data-name="${name}"]`;
/** The listing's names, '..' included, in order. */
const names = (page: Page) => page.$$eval(".files-row", (rows) => rows.map((r) => r.getAttribute("data-name")));
/** Waits for the file manager to have hydrated (its toolbar buttons then do something). */
const hydrated = (page: Page) => page.waitForSelector('[data-island="FileManager"][data-hydrated="done"]');
/** Hotkeys are not typed into fields: leave whatever has focus first. */
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

async function createEntry(page: Page, kind: "n d" | "n f", name: string): Promise<void> {
  await blur(page);
  await page.keyboard.press(kind[0]!);
  await page.keyboard.press(kind[2]!);
  const dialog = page.locator('[data-testid="files-name-dialog"]');
  await dialog.waitFor();
  expect(await dialog.locator('button[type="submit"]').isDisabled()).toBe(true);
  await dialog.locator('input[name="name"]').fill(name);
  await dialog.locator('input[name="name"]').press("Enter");
  await dialog.waitFor({ state: "detached", timeout: 10_000 }).catch(() => undefined);
}

describe.if(enabled)("files in a browser", () => {
  test("create, edit and save, reload, upload with progress, archive, delete, extract", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page);
    const id = await createServer(page, "Files Browser");
    await page.goto(`${base}/server/${id}?tab=files`);
    await hydrated(page);
    // The SFTP card with the local node's SFTP port and email#id.
    expect(await page.textContent('[data-testid="sftp-username"]')).toBe(`${ADMIN.email}#${id}`);
    expect(await page.textContent('[data-testid="sftp-address"]')).toMatch(/^localhost:\d+$/);
    // The install wrote motd.txt.
    await page.waitForSelector(row("motd.txt"));

    // A folder by its hotkey (n d), with Enter.
    await createEntry(page, "n d", "configs");
    await page.waitForSelector(row("configs"));
    expect(await page.getAttribute(row("configs"), "data-kind")).toBe("folder");

    // A file by its hotkey (n f): it opens in the editor; type, save with the button.
    await createEntry(page, "n f", "notes.txt");
    const editor = page.locator('[data-testid="files-editor"]');
    await editor.locator(".cm-editor .cm-content").waitFor({ timeout: 15_000 });
    await editor.locator(".cm-content").click();
    await page.keyboard.type("first line\nsecond line");
    expect(await editor.locator(".files-dirty").isVisible()).toBe(true);
    await editor.locator("[data-save-file]").click();
    await page.waitForFunction(() => [...document.querySelectorAll(".toast")].some((t) => t.textContent === "Saved notes.txt"));
    await editor.locator(".files-overlay-head button[aria-label='Close']").click();
    await editor.waitFor({ state: "detached" });

    // After a reload the text is there.
    await page.reload();
    await hydrated(page);
    await page.click(`${row("notes.txt")} a.files-name`);
    await page.waitForFunction(() => document.querySelector('[data-testid="files-editor"] .cm-content')?.textContent?.includes("second line"), null, { timeout: 15_000 });
    expect(await page.locator('[data-testid="files-editor"] .cm-line').allTextContents()).toEqual(["first line", "second line"]);
    await page.keyboard.press("Escape");
    await page.locator('[data-testid="files-editor"]').waitFor({ state: "detached" });

    // Upload into configs (the u hotkey, Enter starts); the progress bar shows while it goes.
    await page.click(`${row("configs")} a.files-name`);
    await page.waitForURL(/path=configs/);
    await page.waitForSelector('.files-row[data-name=".."]');
    await page.evaluate(() => {
      // Progress may come and go faster than a poll: watch for it instead.
      const seen: number[] = [];
      (window as unknown as { progressSeen: number[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('.files-progress[role="progressbar"]');
        if (bar) seen.push(Number(bar.getAttribute("aria-valuenow")));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await blur(page);
    await page.keyboard.press("u");
    const upload = page.locator('[data-testid="files-upload-dialog"]');
    await upload.waitFor();
    expect(await upload.locator('button[type="submit"]').isDisabled()).toBe(true);
    const payload = Buffer.alloc(3 * 1024 * 1024, 7);
    await upload.locator('input[type="file"]').setInputFiles([{ name: "data.bin", mimeType: "application/octet-stream", buffer: payload }]);
    // A slow link (1 MiB/s up), so the bar has time to move.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
    await upload.locator('input[type="file"]').focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector('.files-progress[role="progressbar"]');
    expect(await upload.locator('button[type="submit"]').isDisabled()).toBe(true);
    await page.waitForSelector(row("data.bin"), { timeout: 30_000 });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    // The bar started at 0 and moved through values on the way, one file of one.
    expect(seen[0]).toBe(0);
    expect(seen.some((v) => v > 0 && v < 100)).toBe(true);
    // Done, the dialog closed by itself.
    await upload.waitFor({ state: "detached" });
    expect(await page.textContent(`${row("data.bin")} .files-col-size`)).toBe("3.1 MB");
    await page.waitForFunction(() => [...document.querySelectorAll(".toast")].some((t) => t.textContent === "Upload finished"));

    // Back to the root by the breadcrumb; archive the folder.
    await page.click('.files-breadcrumb a:has-text("Server")');
    await page.waitForSelector(row("motd.txt"));
    await page.click(`${row("configs")} [data-action="archive"]`);
    await page.waitForSelector(row("configs.zip"), { timeout: 20_000 });

    // Delete the folder behind the confirmation overlay.
    await page.click(`${row("configs")} [data-action="delete"]`);
    const confirmDelete = page.locator('[data-testid="files-delete-dialog"]');
    await confirmDelete.waitFor();
    expect(await confirmDelete.locator("p").textContent()).toContain("the folder configs and everything in it");
    await confirmDelete.locator("[data-confirm-delete]").click();
    await page.waitForSelector(row("configs"), { state: "detached" });

    // Extract the zip into this folder: the folder and its file come back.
    await page.click(`${row("configs.zip")} [data-action="extract"]`);
    // It asks where, and says what it would replace there (nothing: the folder is gone).
    await page.waitForSelector('[data-testid="files-extract-preview"]');
    expect(await page.textContent('[data-testid="files-extract-preview"]')).toContain("Nothing already there is replaced.");
    await page.click("[data-confirm-extract]");
    await page.waitForSelector(row("configs"), { timeout: 20_000 });
    await page.click(`${row("configs")} a.files-name`);
    await page.waitForSelector(row("data.bin"));
    expect(await names(page)).toEqual(["..", "data.bin"]);

    // The browser's back button goes back up.
    await page.goBack();
    await page.waitForSelector(row("configs.zip"));

    // Delete the zip too; a refresh (r) shows the same listing.
    await page.click(`${row("configs.zip")} [data-action="delete"]`);
    await page.locator("[data-confirm-delete]").click();
    await page.waitForSelector(row("configs.zip"), { state: "detached" });
    await blur(page);
    await page.keyboard.press("r");
    await page.waitForTimeout(900);
    expect(await names(page)).toEqual(["configs", "motd.txt", "notes.txt"]);
    await context.close();
  }, 120_000);
});
