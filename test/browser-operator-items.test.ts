// The operator's second pass over the server page, in Chromium against a real panel and its local
// node: create dialogs (New file, New folder: the file manager's own; New task: a server-rendered
// overlay, which the shell focuses) put the caret in their field; an archive's name opens a menu,
// and Extract asks where and lists what it would replace. Screenshots with KILN_SHOTS.
import { beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, createEchoServer } from "./helpers/browser-panel";
import { LAPTOP, SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { FILE, rawZip } from "../daemon/files/extract-test-archives";
import { SERVER_FLAGS } from "../core/scopes";
import { sidewaysOverflow } from "./helpers/browser";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));
/** The file's one login: every test's contexts are opened in its session (shotContext). */
let admin: BrowserContext;
beforeAll(async () => {
  if (enabled) admin = await shotContext(browser, base, LAPTOP, null, BROWSER_ADMIN);
});

async function adminPage(options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await shotContext(browser, base, options.viewport ?? LAPTOP, null, admin, { javaScriptEnabled: options.javaScriptEnabled });
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
      const context = await shotContext(browser, base, viewport, locale, admin);
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

describe.if(enabled)("the stats tab", () => {
  test("the time axis shows the clock time, and the memory axis fits the limit (laptop, phone, right to left)", async () => {
    const { context: setup, page: first } = await adminPage();
    // Started once its install is done.
    const id = await createEchoServer(first, base, "Limited echo", { limits: { memoryMiB: 48 } });
    expect((await first.request.post(`${base}/proxy/daemon/server/${id}/start?wait=true`)).status()).toBeLessThan(300);
    await setup.close();
    for (const { suffix, viewport, locale } of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, viewport, locale, admin);
      const page = await context.newPage();
      await page.goto(`${base}/server/${id}?tab=stats`);
      await page.waitForSelector(".stats-chart-limit", { state: "attached", timeout: 30_000 });
      const labels = await page.$$eval(".stats-chart-x span", (spans) => spans.map((s) => s.textContent ?? ""));
      expect(labels.length).toBeGreaterThan(0);
      for (const label of labels) expect(label).toMatch(/^\d\d:\d\d:\d\d$/);
      // MB by default: the 50.33 MB limit on an axis of 60, not of 1000.
      expect(await page.locator(".stats-chart").nth(1).locator(".stats-chart-plot").getAttribute("data-max")).toBe("60");
      expect(await sidewaysOverflow(page)).toEqual([]);
      await shoot(page, `stats-clock-limit-${suffix}`);
      await context.close();
    }
  }, 120_000);
});

describe.if(enabled)("tasks show their last and next run", () => {
  test("a new scheduled task says it has not run and when it will; run now, it says it ran (laptop, phone, right to left)", async () => {
    const { context: setup, page: first } = await adminPage();
    const id = await server(first);
    expect((await first.request.post(`${base}/proxy/daemon/server/${id}/start?wait=true`)).status()).toBeLessThan(300);
    // Three hours from now on the hour, so the next run is always "in 2 or 3 hours", whenever this runs.
    const hour = (new Date().getHours() + 3) % 24;
    const created = await first.request.post(`${base}/proxy/daemon/server/${id}/tasks`, { data: { name: "Say hello", cronSchedule: `0 ${hour} * * *`, operations: [{ type: "console", command: "hello" }] } });
    expect(created.status()).toBe(201);
    const taskId = (await created.json()).id as string;
    await first.goto(`${base}/server/${id}?tab=tasks`);
    const row = first.locator(`[data-task-id="${taskId}"]`);
    expect(await row.locator('[data-testid="task-last-run"]').textContent()).toBe("Not run yet");
    expect(await row.locator('[data-testid="task-next-run"]').textContent()).toMatch(/^Next run in \d+ hours?$/);
    expect(await row.locator('[data-testid="task-next-run"] time').getAttribute("title")).toContain(`${hour % 12 || 12}:00:00`);
    expect((await first.request.post(`${base}/proxy/daemon/server/${id}/tasks/${taskId}/run`)).status()).toBeLessThan(300);
    const deadline = Date.now() + 15_000;
    for (;;) {
      await first.goto(`${base}/server/${id}?tab=tasks`);
      const text = await first.locator(`[data-task-id="${taskId}"] [data-testid="task-last-run"]`).textContent();
      if (text?.startsWith("Last run")) break;
      expect(Date.now()).toBeLessThan(deadline);
      await Bun.sleep(300);
    }
    expect(await first.locator(`[data-task-id="${taskId}"] [data-testid="task-last-run"]`).textContent()).toMatch(/^Last run (now|\d+ seconds? ago)$/);
    await setup.close();
    for (const { suffix, viewport, locale } of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, viewport, locale, admin);
      const page = await context.newPage();
      await page.goto(`${base}/server/${id}?tab=tasks`);
      expect(await sidewaysOverflow(page)).toEqual([]);
      await shoot(page, `tasks-last-next-${suffix}`);
      await context.close();
    }
  }, 120_000);
});

describe.if(enabled)("free-text fields in a right-to-left page", () => {
  test("take the direction of what is typed in them (dir=auto), in markup and in islands", async () => {
    const context = await shotContext(browser, base, LAPTOP, "ar_SA", admin);
    const page = await context.newPage();
    const id = await server(page);
    const direction = (selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).direction);
    await page.goto(`${base}/server/${id}?tab=files`);
    await page.waitForSelector('[data-island="FileManager"][data-hydrated="done"]', { state: "attached", timeout: 60_000 });
    // The server's rename field (markup) and the console's command field (an island) say dir=auto.
    expect(await page.getAttribute('form[action$="/rename"] input[name="name"]', "dir")).toBe("auto");
    await page.click('summary[data-action="new-file"]');
    const name = '[data-testid="files-name-dialog"] input[name="name"]';
    expect(await page.getAttribute(name, "dir")).toBe("auto");
    await page.fill(name, "server.properties");
    expect(await direction(name)).toBe("ltr");
    await page.fill(name, "ملف جديد");
    expect(await direction(name)).toBe("rtl");
    await page.keyboard.press("Escape");
    // A field that says nothing in its markup is given dir=auto by the shell.
    // The shell's script gives it once it has run (a page under load may answer before that).
    await page.goto(`${base}/account`);
    await page.waitForSelector('input[name="username"][dir]', { state: "attached" });
    expect(await page.getAttribute('input[name="username"]', "dir")).toBe("auto");
    await page.goto(`${base}/server`);
    await page.waitForSelector('input[type="search"][name="q"][dir]', { state: "attached" });
    expect(await page.getAttribute('input[type="search"][name="q"]', "dir")).toBe("auto");
    await context.close();
  }, 90_000);
});

describe.if(enabled)("the server users card", () => {
  test("groups every permission, each with what it allows (laptop, phone, right to left)", async () => {
    for (const { suffix, viewport, locale } of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, viewport, locale, admin);
      const page = await context.newPage();
      const id = await server(page);
      await page.goto(`${base}/server/${id}?tab=users`);
      // The add card: opened from its summary when users are there already.
      const card = page.locator('details.user-card:has([data-testid="add-server-user"])');
      if ((await card.getAttribute("open")) === null) await card.locator("> summary").click();
      const groups = page.locator('[data-testid="add-server-user"] [data-flag-group]');
      expect(await groups.count()).toBe(4);
      expect(await page.locator('[data-testid="add-server-user"] .flag-row').count()).toBe(SERVER_FLAGS.length);
      expect(await sidewaysOverflow(page)).toEqual([]);
      await shoot(page, `server-users-groups-${suffix}`);
      await context.close();
    }
  }, 90_000);
});

describe.if(enabled)("backups with a note, browsed to restore one path", () => {
  test("a backup made with a note shows it; its browser lists folders and restores a file (laptop, phone, right to left)", async () => {
    const { context: setup, page: first } = await adminPage();
    const id = await server(first);
    await first.goto(`${base}/server/${id}?tab=backups`);
    await first.fill('[data-testid="backup-note"]', "before the 1.21 update");
    await first.click('[data-testid="backup-create"]');
    const deadline = Date.now() + 30_000;
    let backup = "";
    for (;;) {
      const answer = await (await first.request.get(`${base}/proxy/daemon/server/${id}/backups`)).json();
      backup = answer.backups.find((b: { note?: string }) => b.note === "before the 1.21 update")?.id ?? "";
      if (backup && answer.running === null) break;
      expect(Date.now()).toBeLessThan(deadline);
      await Bun.sleep(300);
    }
    await first.goto(`${base}/server/${id}?tab=backups`);
    expect(await first.textContent(`[data-backup-id="${backup}"] [data-testid="backup-note-text"]`)).toBe("before the 1.21 update");
    await setup.close();
    for (const { suffix, viewport, locale } of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, viewport, locale, admin);
      const page = await context.newPage();
      await page.goto(`${base}/server/${id}?tab=backups`);
      await page.click(`[data-backup-id="${backup}"] [data-testid="backup-restore"] > summary`);
      await page.click(`[data-backup-id="${backup}"] [data-testid="backup-browse"]`);
      await page.waitForSelector('[data-testid="backup-browser"] [data-entry="motd.txt"]');
      // Before the islands run (a busy machine), Browse is a link: the browser page is measured once
      // its stylesheet has applied (its HTML alone, unstyled, is wider than a phone).
      await page.waitForLoadState("load");
      expect(await sidewaysOverflow(page)).toEqual([]);
      await shoot(page.locator('[data-testid="backups"]'), `backup-browse-${suffix}`);
      await context.close();
    }
  }, 120_000);
});
