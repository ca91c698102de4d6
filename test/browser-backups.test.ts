// The Backups tab in Chromium against a real panel and its local node, at 1366 and
// 390 px: Back up now, its progress followed until the tab reloads by itself, the backup listed
// with who made it, lock and unlock, a restore confirmed
// in its dialog that puts the files back, a .tar.gz download through the panel, delete behind its
// confirmation; the page never wider than the phone. The policy on the admin card and the targets
// on the node page are shown too. KILN_SHOTS=<folder> keeps screenshots of each.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { hasChromium, hasRestic } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, logInAsAdmin, startBrowserPanel } from "./helpers/browser-panel";
import { echoTemplate } from "./helpers/node";
import { tempDir } from "./helpers/process";
import { sidewaysOverflow } from "./helpers/browser";

const enabled = hasChromium() && hasRestic();
const data = tempDir("kiln-browser-backups-");
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel), () => startBrowserPanel({ KILN_ADMIN_EMAIL: BROWSER_ADMIN.email, KILN_ADMIN_PASSWORD: BROWSER_ADMIN.password }, data));

async function shot(page: Page, name: string): Promise<void> {
  if (process.env.KILN_SHOTS) await page.screenshot({ path: join(process.env.KILN_SHOTS, `${name}.png`), fullPage: true });
}

/** The page is no wider than its window (nothing pushes it sideways). */

async function newServer(page: Page, name: string): Promise<string> {
  expect((await page.request.put(`${base}/api/templates/echo`, { data: echoTemplate() })).status()).toBe(200);
  const nodes = await (await page.request.get(`${base}/api/nodes`)).json();
  const created = await page.request.post(`${base}/api/servers`, { data: { name, node: nodes[0].id, template: "echo", environment: { type: "standard" } } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  const folder = join(data, "node", "servers", id);
  mkdirSync(join(folder, "world"), { recursive: true });
  writeFileSync(join(folder, "world", "level.dat"), "the first world");
  return id;
}

/** Reloads the tab until a backup is listed (it is made in the background). */
async function waitForBackups(page: Page, count: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await page.locator('[data-testid="backup"]').count()) === count && (await page.locator('[data-testid="backup-running"]').count()) === 0) return;
    await Bun.sleep(200);
    await page.reload();
  }
  throw new Error(`expected ${count} backup(s)`);
}

describe.if(enabled)("the Backups tab in a browser", () => {
  for (const width of [1366, 390]) {
    test(`at ${width} px: back up, lock${width === 1366 ? ", restore after confirming, download, delete" : ", the restore dialog"}`, async () => {
      const context = await browser.newContext({ locale: "en-US", viewport: { width, height: 900 } });
      const page = await context.newPage();
      await logInAsAdmin(page, base);
      const id = await newServer(page, `Backups ${width}`);
      const folder = join(data, "node", "servers", id);
      await page.goto(`${base}/server/${id}?tab=backups`);
      expect(await page.textContent('[data-testid="backups-empty"]')).toBe("No backups yet");
      // A running server with a command to send first: the backup pauses two seconds after it, so
      // the tab shows it running, and the progress island reloads the tab when it is done.
      expect((await page.request.post(`${base}/proxy/daemon/server/${id}/backup-settings/policy`, { data: { before: ["say saving"] } })).status()).toBe(200);
      expect((await page.request.post(`${base}/proxy/daemon/server/${id}/start?wait=true`)).status()).toBeLessThan(300);
      await page.click('[data-testid="backup-create"]');
      await page.waitForURL(`${base}/server/${id}?tab=backups`);
      expect(await page.isVisible('[data-testid="backup-running"]')).toBe(true);
      await page.waitForSelector('[data-testid="backup"]', { timeout: 30_000 });
      expect(await page.locator('[data-testid="backup-running"]').count()).toBe(0);
      expect((await page.request.post(`${base}/proxy/daemon/server/${id}/kill`)).status()).toBeLessThan(300);
      await waitForBackups(page, 1);
      expect(await page.textContent('[data-testid="backup"]')).toContain(`By ${BROWSER_ADMIN.email.split("@")[0]}`);
      expect(await sidewaysOverflow(page)).toEqual([]);
      await shot(page, `backups-tab-${width}`);

      await page.click('[data-testid="backup-lock"]');
      await page.waitForSelector('[data-testid="backup-locked"]');
      expect(await page.locator('[data-testid="backup-delete"]').count()).toBe(0);
      await page.click('[data-testid="backup-lock"]');
      await page.waitForSelector('[data-testid="backup-delete"]');
      // The rest of the round trip once, on the wide screen; the phone only opens the restore dialog.
      if (width !== 1366) {
        await page.click('[data-testid="backup-restore"] > summary');
        expect(await page.locator('[data-testid="backup-restore"] [role="dialog"]').isVisible()).toBe(true);
        expect(await sidewaysOverflow(page)).toEqual([]);
        await shot(page, `backups-restore-${width}`);
        await policyAndTargets(page, id, width);
        await context.close();
        return;
      }

      writeFileSync(join(folder, "world", "level.dat"), "a ruined world");
      await page.click('[data-testid="backup-restore"] > summary');
      const dialog = page.locator('[data-testid="backup-restore"] [role="dialog"]');
      expect(await dialog.isVisible()).toBe(true);
      expect(await dialog.textContent()).toContain("The server is stopped, its files are replaced");
      await shot(page, `backups-restore-${width}`);
      await dialog.locator('button[type="submit"]').click();
      await page.waitForURL(`${base}/server/${id}?tab=backups`);
      for (let i = 0; i < 100 && readFileSync(join(folder, "world", "level.dat"), "utf8") !== "the first world"; i++) await Bun.sleep(100);
      expect(readFileSync(join(folder, "world", "level.dat"), "utf8")).toBe("the first world");

      const href = await page.getAttribute('[data-testid="backup-download"]', "href");
      const download = await page.request.get(`${base}${href}`);
      expect(download.status()).toBe(200);
      expect(download.headers()["content-type"]).toBe("application/gzip");
      const out = tempDir("kiln-browser-dump-");
      writeFileSync(join(out, "a.tar.gz"), await download.body());
      expect(new TextDecoder().decode(Bun.spawnSync(["tar", "xzOf", join(out, "a.tar.gz"), "world/level.dat"]).stdout)).toBe("the first world");

      await waitForBackups(page, 1);
      await page.click('[data-testid="backup-delete"] > summary');
      await page.locator('[data-testid="backup-delete"] [role="dialog"] button[type="submit"]').click();
      await page.waitForURL(`${base}/server/${id}?tab=backups`);
      await waitForBackups(page, 0);

      await policyAndTargets(page, id, width);
      await context.close();
    }, 90_000);
  }
});

/** The policy on the admin card and the node's targets are shown, and fit the screen. */
async function policyAndTargets(page: Page, id: string, width: number): Promise<void> {
  await page.goto(`${base}/server/${id}?tab=admin`);
  expect(await page.isVisible('[data-testid="backup-policy"]')).toBe(true);
  expect(await sidewaysOverflow(page)).toEqual([]);
  await page.locator('[data-testid="backup-policy"]').scrollIntoViewIfNeeded();
  await shot(page, `backups-policy-${width}`);
  const nodes = await (await page.request.get(`${base}/api/nodes`)).json();
  await page.goto(`${base}/node/${nodes[0].id}`);
  expect(await page.isVisible('[data-testid="backup-targets"]')).toBe(true);
  expect(await sidewaysOverflow(page)).toEqual([]);
  await shot(page, `backups-targets-${width}`);
}
