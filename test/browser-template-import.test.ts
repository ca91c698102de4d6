// The template import dialog at scale, in Chromium against a real panel: two GitHub repositories
// (pufferpanel/templates v3 and pelican-eggs/minecraft, read from recorded archives behind the
// panel's KILN_GITHUB_ARCHIVE_URL) beside the library; the slow one fills in by itself while the
// others are usable, the search filters as one types, each repository's heading stays in view
// while its offers scroll, and an id that collides with an installed template is imported under
// its namespaced id by choice. Screenshots at 1280, 390 and right to left (KILN_SHOTS).
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, logInAsAdmin, startAdminBrowserPanel } from "./helpers/browser-panel";
import { serveGitHubArchives, type ArchiveServer } from "./helpers/github-archive-server";
import { LAPTOP, SHOT_VARIANTS, shotContext } from "./helpers/screenshots";
import { SETTING_KEYS } from "../server/services/settings";
import { sidewaysOverflow } from "./helpers/browser";

const FIXTURES = join(import.meta.dir, "..", "..", "shared", "fixtures");
const PUFFER = "https://github.com/pufferpanel/templates/tree/v3";
const EGGS = "https://github.com/pelican-eggs/minecraft";
const enabled = hasChromium() && existsSync(join(FIXTURES, "pufferpanel-templates", "v3"));

let browser: Browser;
let base: string;
let archives: ArchiveServer;
browserPanelForFile(
  enabled,
  (panel) => ({ browser, base } = panel),
  () => {
    archives = serveGitHubArchives({
      "pufferpanel/templates/v3": join(FIXTURES, "pufferpanel-templates", "v3"),
      "pelican-eggs/minecraft/HEAD": join(FIXTURES, "eggs", "minecraft"),
    });
    return startAdminBrowserPanel({ KILN_GITHUB_ARCHIVE_URL: archives.url });
  },
);

const visibleOffers = (page: Page, repository: string) =>
  page.$$eval(`[data-repository="${repository}"] .template-offer`, (offers) => offers.filter((o) => !(o as HTMLElement).hidden).map((o) => o.getAttribute("data-offer")));

describe.if(enabled)("the template import dialog", () => {
  test("a slow repository fills in by itself; the search filters as one types; headings stay in view", async () => {
    const page = await (await browser.newContext({ viewport: LAPTOP })).newPage();
    await logInAsAdmin(page, base);
    expect((await page.request.post(`${base}/api/settings`, { data: { [SETTING_KEYS.templateRepositories]: `${PUFFER}\n${EGGS}` } })).status()).toBeLessThan(300);
    const release = archives.holdBack("pelican-eggs/minecraft");
    try {
      await page.goto(`${base}/template?import=1#import`);
      // The quick ones are there at once, the slow one says it is loading.
      expect(await page.isVisible(`[data-repository="${PUFFER}"] [data-offer="ark"]`)).toBe(true);
      expect(await page.isVisible(`[data-repository="${EGGS}"][data-pending]`)).toBe(true);
      release();
      await page.waitForSelector(`[data-repository="${EGGS}"] [data-offer="paper"]`, { timeout: 20_000 });
      expect(await page.$(`[data-repository="${EGGS}"][data-pending]`)).toBeNull();
    } finally {
      release();
    }

    await page.fill("[data-import-dialog] input[data-import-filter]", "valheim");
    expect(await visibleOffers(page, PUFFER)).toEqual(["valheim"]);
    expect(await visibleOffers(page, "kiln")).toEqual(["valheim"]);
    expect(await visibleOffers(page, EGGS)).toEqual([]);
    expect(await page.isVisible(`[data-repository="${EGGS}"] .template-repo-none`)).toBe(true);
    await page.fill("[data-import-dialog] input[data-import-filter]", "");
    expect((await visibleOffers(page, PUFFER)).length).toBe(36);

    // Scrolled into the middle of the PufferPanel repository, its heading is still at the top of the list.
    const list = page.locator(".template-import-list");
    await page.locator(`[data-repository="${PUFFER}"] [data-offer="rust"]`).scrollIntoViewIfNeeded();
    const listTop = (await list.boundingBox())!.y;
    const heading = (await page.locator(`[data-repository="${PUFFER}"] > h3`).boundingBox())!;
    expect(Math.abs(heading.y - listTop)).toBeLessThan(2);
    expect(await sidewaysOverflow(page)).toEqual([]);
  }, 90_000);

  test("an id an installed template has is imported under its namespaced id, by choice", async () => {
    const page = await (await browser.newContext({ viewport: LAPTOP })).newPage();
    await logInAsAdmin(page, base);
    await page.goto(`${base}/template?import=1&q=valheim#import`);
    // The library's valheim is installed (a starter template): the PufferPanel one collides.
    const offer = page.locator(`[data-repository="${PUFFER}"] [data-offer="valheim"]`);
    expect(await offer.locator("[data-collision]").textContent()).toContain("from Kiln library");
    await offer.locator('button[data-import-as="valheim-pufferpanel"]').click();
    await page.waitForURL(/\/template\/valheim-pufferpanel/);
    const ids = (await (await page.request.get(`${base}/api/templates`)).json()).map((t: { id: string }) => t.id);
    expect(ids).toEqual(expect.arrayContaining(["valheim", "valheim-pufferpanel"]));
    expect((await (await page.request.get(`${base}/api/templates/valheim`)).json()).repository).toBe("kiln");
  }, 60_000);

  test("screenshots (laptop, phone, right to left), the dialog within the screen", async () => {
    for (const { suffix, viewport, locale } of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, viewport, locale, BROWSER_ADMIN);
      const page = await context.newPage();
      expect((await page.request.post(`${base}/api/settings`, { data: { [SETTING_KEYS.templateRepositories]: `${PUFFER}\n${EGGS}` } })).status()).toBeLessThan(300);
      await page.goto(`${base}/template?import=1#import`);
      await page.waitForSelector(`[data-repository="${EGGS}"] [data-offer="paper"]`, { timeout: 20_000 });
      const box = (await page.locator(".template-import").boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 1);
      if (process.env.KILN_SHOTS) await page.screenshot({ path: join(process.env.KILN_SHOTS, `template-import-${suffix}.png`) });
      // The search, with a collision among the results (the library's valheim is installed).
      await page.fill("[data-import-dialog] input[data-import-filter]", "valheim");
      if (process.env.KILN_SHOTS) await page.screenshot({ path: join(process.env.KILN_SHOTS, `template-import-search-${suffix}.png`) });
      await context.close();
    }
  }, 90_000);
});
