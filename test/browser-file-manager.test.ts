// The file manager in a real Chromium against a real panel and its local node, at a laptop
// width (1366 px) and a phone width (390 px): a binary file never opens in the editor and keeps
// its bytes; Save is enabled only after a change; without script every toolbar and row control
// works as a plain form; a listing that fails says so with a retry instead of "empty"; rename,
// move, copy, permissions, the selection's bulk delete, archive and zip download, and search.
import { beforeAll, describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, createEchoServer, browserPanelForFile } from "./helpers/browser-panel";
import { shotContext } from "./helpers/screenshots";
import { sidewaysOverflow } from "./helpers/browser";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const LAPTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The file's one login: the scripted sessions are opened in it (shotContext). */
let admin: BrowserContext;
beforeAll(async () => {
  if (enabled) admin = await shotContext(browser, base, LAPTOP, null, BROWSER_ADMIN);
});

async function session(viewport: { width: number; height: number }, javaScriptEnabled = true): Promise<{ context: BrowserContext; page: Page }> {
  if (javaScriptEnabled) {
    const context = await shotContext(browser, base, viewport, null, admin);
    return { context, page: await context.newPage() };
  }
  // The login form works without script too.
  const context = await browser.newContext({ viewport, javaScriptEnabled });
  const page = await context.newPage();
  await page.goto(`${base}/auth/login`);
  await page.fill("input[name=email]", BROWSER_ADMIN.email);
  await page.fill("input[name=password]", BROWSER_ADMIN.password);
  await page.click("main form button[type=submit]");
  await page.waitForURL(`${base}/server`);
  return { context, page };
}

const createServer = (page: Page, name: string) => createEchoServer(page, base, name);

const put = (page: Page, id: string, path: string, bytes: Buffer) => page.request.put(`${base}/proxy/daemon/server/${id}/file/${path}`, { multipart: { file: { name: path.split("/").pop()!, mimeType: "application/octet-stream", buffer: bytes } } });
const folder = (page: Page, id: string, path: string) => page.request.put(`${base}/proxy/daemon/server/${id}/file/${path}?folder=true`);
const row = (name: string) => `.files-row[data-name="${name}"]`;
const names = (page: Page) => page.$$eval(".files-row", (rows) => rows.map((r) => r.getAttribute("data-name")));
const hydrated = (page: Page) => page.waitForSelector('[data-island="FileManager"][data-hydrated="done"]');
const toast = (page: Page, text: string) => page.waitForFunction((t) => [...document.querySelectorAll(".toast")].some((el) => el.textContent === t), text);
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
/** Nothing wider than the window: the page never scrolls sideways. */

describe.if(enabled)("the file manager in a browser", () => {
  for (const [label, viewport] of [["laptop", LAPTOP], ["phone", PHONE]] as const) {
    test(`${label}: a binary file is never edited and keeps its bytes; Save only after a change`, async () => {
      const { context, page } = await session(viewport);
      const id = await createServer(page, `Binary ${label}`);
      const binary = Buffer.concat([Buffer.from("PK\u0003\u0004"), randomBytes(8_000_000)]);
      expect((await put(page, id, "world.dat", binary)).status()).toBe(200);
      await page.goto(`${base}/server/${id}?tab=files`);
      await hydrated(page);
      await page.click(`${row("world.dat")} a.files-name`);
      const editor = page.locator('[data-testid="files-editor"]');
      await editor.locator("[data-refusal]").waitFor({ timeout: 20_000 });
      expect(await editor.locator("[data-refusal]").textContent()).toContain("is not a text file");
      expect(await editor.locator("[data-save-file]").count()).toBe(0);
      expect(await editor.locator(".cm-editor").count()).toBe(0);
      // The download it offers is the file, byte for byte.
      const [download] = await Promise.all([page.waitForEvent("download"), editor.locator("[data-download-file]").click()]);
      const fetched = await (await import("node:fs/promises")).readFile((await download.path())!);
      expect(sha(fetched)).toBe(sha(binary));
      await page.keyboard.press("Escape");
      await editor.waitFor({ state: "detached" });

      // A text file: Save is disabled until something changes; after a save, the bytes are those typed.
      expect((await put(page, id, "server.properties", Buffer.from("motd=hi\r\nport=1\r\n"))).status()).toBe(200);
      await page.click('[data-action="refresh"]');
      await page.click(`${row("server.properties")} a.files-name`);
      await editor.locator(".cm-editor .cm-content").waitFor({ timeout: 20_000 });
      expect(await editor.locator("[data-save-file]").isDisabled()).toBe(true);
      await editor.locator(".cm-content").click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type("max=5");
      expect(await editor.locator("[data-save-file]").isDisabled()).toBe(false);
      await editor.locator("[data-save-file]").click();
      await toast(page, "Saved server.properties");
      const saved = await (await page.request.get(`${base}/proxy/daemon/server/${id}/file/server.properties`)).text();
      expect(saved).toBe("motd=hi\r\nport=1\r\nmax=5");
      // A second save replaces the version the first one made (its answer named it).
      await editor.locator(".cm-content").click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type("0");
      await editor.locator("[data-save-file]").click();
      // Saved: nothing left to save.
      await editor.locator("[data-save-file]:disabled").waitFor();
      expect(await editor.locator("[data-conflict]").count()).toBe(0);
      // Someone else writes the file while it is open: the save is refused and says so.
      expect((await put(page, id, "server.properties", Buffer.from("motd=them\r\n"))).status()).toBe(200);
      await editor.locator(".cm-content").click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type("1");
      await editor.locator("[data-save-file]").click();
      await editor.locator("[data-conflict]").waitFor();
      expect(await editor.locator("[data-conflict]").textContent()).toContain("changed since you opened it");
      expect(await (await page.request.get(`${base}/proxy/daemon/server/${id}/file/server.properties`)).text()).toBe("motd=them\r\n");
      expect(await sidewaysOverflow(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/shots/editor-conflict-${label}.png` }).catch(() => undefined);
      // Loading it again shows the other writer's text; saving over it (after a new conflict) keeps the edit.
      await editor.locator("[data-reload-file]").click();
      await page.waitForFunction(() => document.querySelector(".cm-content")?.textContent?.startsWith("motd=them"));
      expect(await editor.locator("[data-conflict]").count()).toBe(0);
      expect((await put(page, id, "server.properties", Buffer.from("motd=again\r\n"))).status()).toBe(200);
      await editor.locator(".cm-content").click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type("!");
      await editor.locator("[data-save-file]").click();
      await editor.locator("[data-overwrite-file]").click();
      await editor.locator("[data-conflict]").waitFor({ state: "detached" });
      expect(await (await page.request.get(`${base}/proxy/daemon/server/${id}/file/server.properties`)).text()).toBe("motd=them\r\n!");
      await context.close();
    }, 120_000);

    test(`${label}: without script, new folder, upload, rename and delete work as plain forms`, async () => {
      const { context, page } = await session(viewport, false);
      const id = await createServer(page, `No script ${label}`);
      await page.goto(`${base}/server/${id}?tab=files`);
      await page.waitForSelector(row("motd.txt"));
      // New folder: the button opens its form.
      await page.click('summary[data-action="new-folder"]');
      const newFolder = page.locator('details[open] form[action$="/files/new"]');
      await newFolder.locator('input[name="name"]').fill("maps");
      await newFolder.locator('button[type="submit"]').click();
      await page.waitForSelector(row("maps"));
      expect(await page.textContent(".toast")).toBe("Created");
      // Upload into it.
      await page.click(`${row("maps")} a.files-name`);
      await page.waitForSelector('.files-row[data-name=".."]');
      await page.click('summary[data-action="upload"]');
      await page.setInputFiles('details[open] input[type="file"]', { name: "level.dat", mimeType: "application/octet-stream", buffer: Buffer.alloc(70_000, 3) });
      await page.click('details[open] form[enctype="multipart/form-data"] button[type="submit"]');
      await page.waitForSelector(row("level.dat"));
      expect(await page.textContent(`${row("level.dat")} .files-col-size`)).toBe("70 KB");
      // Rename from the row's menu: the second step is a form of its own.
      await page.click(`${row("level.dat")} summary[data-action="more"]`);
      await page.click(`${row("level.dat")} button[data-action="rename"]`);
      await page.waitForSelector('[data-testid="files-pending"][data-action="rename"]');
      await page.fill('[data-testid="files-pending"] input[name="name"]', "level-old.dat");
      await page.click('[data-testid="files-pending"] button[type="submit"]');
      await page.waitForSelector(row("level-old.dat"));
      // Delete by ticking and the selection's Delete: asks, then deletes.
      await page.check(`${row("level-old.dat")} input[name="pick"]`);
      await page.click('button[data-action="selection-delete"]');
      await page.waitForSelector('[data-testid="files-pending"][data-action="delete"]');
      await page.click('[data-testid="files-pending"] button[type="submit"]');
      await page.waitForSelector(".files-empty");
      expect(await names(page)).toEqual([".."]);
      expect(await sidewaysOverflow(page)).toEqual([]);
      await context.close();
    }, 120_000);
  }

  test("a listing that fails says why with a retry, not 'This folder is empty'", async () => {
    const { context, page } = await session(LAPTOP);
    const id = await createServer(page, "Offline");
    await folder(page, id, "world");
    await page.goto(`${base}/server/${id}?tab=files`);
    await hydrated(page);
    // The node stops answering (the panel's answer when it cannot reach it).
    await page.route("**/proxy/daemon/server/*/file/**", (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: { code: "ErrServiceNotAvailable", msg: "node down", metadata: {} } }) }));
    await page.click(`${row("world")} a.files-name`);
    const error = page.locator('[data-testid="files-load-error"]');
    await error.waitFor();
    expect(await error.textContent()).toContain("The service is not available");
    expect(await page.locator(".files-empty").count()).toBe(0);
    await page.unroute("**/proxy/daemon/server/*/file/**");
    await error.locator('[data-action="retry"]').click();
    await error.waitFor({ state: "detached" });
    await page.waitForSelector(row("motd.txt"));
    await context.close();
  }, 60_000);

  for (const [label, viewport] of [["laptop", LAPTOP], ["phone", PHONE]] as const) {
    test(`${label}: rename, copy, move, permissions, selection (zip download, archive, bulk delete) and search`, async () => {
      const { context, page } = await session(viewport);
      const id = await createServer(page, `Manager ${label}`);
      await folder(page, id, "plugins");
      await put(page, id, "start.sh", Buffer.from("echo start\n"));
      await page.goto(`${base}/server/${id}?tab=files`);
      await hydrated(page);
      await page.waitForSelector(row("start.sh"));

      // Rename from the row's menu.
      await page.click(`${row("start.sh")} summary[data-action="more"]`);
      await page.click(`${row("start.sh")} button[data-action="rename"]`);
      const nameDialog = page.locator('[data-testid="files-name-dialog"]');
      await nameDialog.locator('input[name="name"]').fill("run.sh");
      await nameDialog.locator('input[name="name"]').press("Enter");
      await page.waitForSelector(row("run.sh"));

      // Permissions: the owner's execute box, then save.
      await page.click(`${row("run.sh")} summary[data-action="more"]`);
      await page.click(`${row("run.sh")} button[data-action="mode"]`);
      const modeDialog = page.locator('[data-testid="files-mode-dialog"]');
      await modeDialog.locator('input[aria-label="Owner: Execute"]').check();
      expect(await modeDialog.locator('input[name="mode"]').inputValue()).toBe("744");
      await modeDialog.locator('button[type="submit"]').click();
      await toast(page, "Permissions of run.sh set to 744");
      // The listing shows it once read again (the column is hidden on a phone).
      await page.waitForFunction((selector) => document.querySelector(selector)?.textContent === "744", `${row("run.sh")} .files-col-mode`);
      expect(await page.getAttribute(`${row("run.sh")} .files-col-mode code`, "title")).toBe("rwxr--r--");

      // Copy into plugins, then move motd.txt there through the selection.
      await page.click(`${row("run.sh")} summary[data-action="more"]`);
      await page.click(`${row("run.sh")} button[data-action="copy"]`);
      const destination = page.locator('[data-testid="files-destination-dialog"]');
      await destination.locator("input").fill("/plugins");
      await destination.locator('button[type="submit"]').click();
      await destination.waitFor({ state: "detached" });
      await page.check(`${row("motd.txt")} input[name="pick"]`);
      await page.click('button[data-action="selection-move"]');
      await destination.locator("input").fill("plugins");
      await destination.locator('button[type="submit"]').click();
      await page.waitForSelector(row("motd.txt"), { state: "detached" });
      await page.click(`${row("plugins")} a.files-name`);
      await page.waitForSelector(row("motd.txt"));
      expect(await names(page)).toEqual(["..", "motd.txt", "run.sh"]);

      // Select all: a zip of both downloads; archive them; delete both behind one confirmation.
      await page.check('input[data-action="select-all"]');
      expect(await page.textContent(".files-selection-count")).toBe("Selected: 2");
      const [zip] = await Promise.all([page.waitForEvent("download"), page.click('button[data-action="selection-download"]')]);
      expect(zip.suggestedFilename()).toBe("plugins.zip");
      const zipped = await (await import("node:fs/promises")).readFile((await zip.path())!);
      expect(zipped.includes(Buffer.from("run.sh")) && zipped.includes(Buffer.from("motd.txt"))).toBe(true);
      await page.click('button[data-action="selection-archive"]');
      await page.waitForSelector(row("plugins.zip"));
      await page.check(`${row("motd.txt")} input[name="pick"]`);
      await page.check(`${row("run.sh")} input[name="pick"]`);
      await page.click('button[data-action="selection-delete"]');
      await page.locator("[data-confirm-delete]").click();
      await page.waitForSelector(row("run.sh"), { state: "detached" });
      expect(await names(page)).toEqual(["..", "plugins.zip"]);

      // Search by name from the server's folder: the copy left at the top is found.
      await page.click('.files-breadcrumb a:has-text("Server")');
      await page.waitForSelector(row("run.sh"));
      await page.fill('.files-search input[name="q"]', "RUN");
      await page.press('.files-search input[name="q"]', "Enter");
      await page.waitForSelector('[data-testid="files-search-results"]');
      expect(await page.$$eval(".files-search-list li", (items) => items.map((li) => li.getAttribute("data-path")))).toEqual(["run.sh"]);
      expect(await sidewaysOverflow(page)).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
