// The Mods tab in a real browser (Chromium) against a real `kiln panel` whose own node downloads
// from a local Modrinth of recorded answers (test/helpers/modrinth-fixture: its file host set as
// the node's modrinthCdn in the panel's config file, its API as the panel's modSources setting).
// A Minecraft Java server whose folder is a Fabric 1.20.4 layout: the tab names the platform;
// searching finds Geyser; its page's Install makes a plan listing Geyser and Fabric API (required
// by Geyser); Apply takes a backup, downloads both and shows done; both are then in the installed
// list, and Undo takes them away again. A modpack made for the server (the stand-in's .mrpack) is
// found in the modpacks pane; its plan lists the mods it downloads and the settings it brings;
// installed, server.properties is the pack's; a newer version is offered as an update whose plan
// names what it removes; undone, it is gone; the same pack chosen as a file is installed again. Screenshots (KILN_SHOTS) of the
// browse pane, a project, the plan, the installed list, the modpacks pane and a pack's plan at 1280
// and 390 px and in Arabic (the change done at 1280 and 390: it is made once, on the laptop).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from "playwright-core";
import { hasChromium, hasRestic } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, startAdminBrowserPanel } from "./helpers/browser-panel";
import { SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { echoTemplate, eventually } from "./helpers/node";
import { tempDir } from "./helpers/process";
import { MODRINTH, startModrinthFixture, type ModrinthFixture } from "./helpers/modrinth-fixture";
import { loaderTemplate, switchTemplate } from "./helpers/mods";
import { startPlatformListsFixture, type PlatformListsFixture } from "./helpers/platform-lists-fixture";
import { CURSEFORGE_KEY, startCurseForgeModsFixture, type CurseForgeModsFixture } from "./helpers/curseforge-mods-fixture";
import { API_KEY as PACKS_KEY, startCurseForgeFixture, type CurseForgeFixture } from "./helpers/curseforge-fixture";
import { SHIPPED_TEMPLATE_SOURCES } from "../templates";
import { startFixtureSources, type FixtureSources } from "./helpers/step-sources";
import { HANGAR, startHangarFixture, type HangarFixture } from "./helpers/hangar-fixture";
import { SPIGET, startSpigetFixture, type SpigetFixture } from "./helpers/spiget-fixture";
import { categoriesOf } from "../core/mods/categories";

const enabled = hasChromium() && hasRestic();
const GEYSER = MODRINTH.geyser;
const FABRIC_API = MODRINTH.fabricApi;
const LIBRARIES = ["libraries/net/fabricmc/fabric-loader/0.15.11/fabric-loader-0.15.11.jar", "libraries/net/fabricmc/intermediary/1.20.4/intermediary-1.20.4.jar"];

let modrinth: ModrinthFixture | undefined;
let curseforge: CurseForgeModsFixture | undefined;
let hangar: HangarFixture | undefined;
let spiget: SpigetFixture | undefined;
let lists: PlatformListsFixture | undefined;
let packs: CurseForgeFixture | undefined;
let sites: FixtureSources | undefined;
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel), async () => {
  modrinth = await startModrinthFixture();
  curseforge = await startCurseForgeModsFixture();
  hangar = await startHangarFixture();
  spiget = startSpigetFixture();
  lists = startPlatformListsFixture();
  packs = startCurseForgeFixture();
  sites = startFixtureSources();
  // The panel's own node reads its sources from the panel's config file (localNode.sources).
  const config = join(tempDir(), "kiln.json");
  // A CurseForge pack's install reaches Java's and CurseForge's stand-ins (its key is the panel's setting).
  const packSources = { java: sites.sources.java, curseforge: packs.sources.curseforge, forge: packs.sources.forge, neoforge: packs.sources.neoforge };
  writeFileSync(config, JSON.stringify({ localNode: { sources: { modrinthCdn: modrinth.cdn, curseforgeCdn: curseforge.cdn, hangarCdn: hangar.cdn, spigetCdn: spiget.origin, ...packSources } } }));
  return startAdminBrowserPanel({ KILN_CONFIG: config });
});
/** The file's one login: every test's contexts are opened in its session (shotContext). */
let admin: BrowserContext;
beforeAll(async () => {
  if (enabled) admin = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, BROWSER_ADMIN);
});
afterAll(() => {
  modrinth?.stop();
  curseforge?.stop();
  hangar?.stop();
  spiget?.stop();
  lists?.stop();
  packs?.stop();
  sites?.stop();
});

/** An empty file at `path` in the server's folder, its folders made first, through the file API. */
async function upload(api: APIRequestContext, id: string, path: string) {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    const made = await api.put(`${base}/proxy/daemon/server/${id}/file/${parts.slice(0, i).join("/")}?folder=true`);
    expect(made.status()).toBeLessThan(300);
  }
  return api.put(`${base}/proxy/daemon/server/${id}/file/${path}`, { multipart: { file: { name: parts.at(-1)!, mimeType: "application/java-archive", buffer: Buffer.alloc(0) } } });
}

/** A server whose folder is a Fabric 1.20.4 layout, on the panel's node, its mods from the local Modrinth; its id. */
async function fabricServer(api: APIRequestContext, name: string): Promise<string> {
  expect((await api.put(`${base}/api/settings`, { data: { modSources: { modrinth: { url: modrinth!.url } } } })).status()).toBe(204);
  const template = { ...echoTemplate(), name: "fabric", display: "Fabric", type: "minecraft-java", install: [] };
  expect((await api.put(`${base}/api/templates/fabric`, { data: template })).status()).toBeLessThan(300);
  const nodes = await (await api.get(`${base}/api/nodes`)).json();
  const created = await api.post(`${base}/api/servers`, { data: { name, node: nodes[0].id, template: "fabric", environment: { type: "standard" } } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  for (const path of LIBRARIES) expect((await upload(api, id, path)).status()).toBeLessThan(300);
  return id;
}

/** A Minecraft Java server on the panel's node whose install writes `file` (a platform's mark: Paper's version_history.json, Spigot's jar); its id, once installed. */
async function minecraftServer(api: APIRequestContext, name: string, file: { target: string; text: string }): Promise<string> {
  const template = { ...echoTemplate(), name: `mc-${name.toLowerCase()}`, display: name, type: "minecraft-java", install: [{ type: "writefile", ...file }] };
  expect((await api.put(`${base}/api/templates/${template.name}`, { data: template })).status()).toBeLessThan(300);
  const nodes = await (await api.get(`${base}/api/nodes`)).json();
  const created = await api.post(`${base}/api/servers`, { data: { name, node: nodes[0].id, template: template.name, environment: { type: "standard" } } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  await eventually(async () => (await api.get(`${base}/proxy/daemon/server/${id}/file/${file.target}`)).status() === 200, 30_000, "the install");
  return id;
}

/**
 * CurseForge at `url` with `key` for the panel (the modpacks' stand-in, or back to the mods' one
 * the other tests use), and the CurseForge template imported. The setting is written whole:
 * Modrinth's stand-in stays in it.
 */
async function curseforgePacks(api: APIRequestContext, url: string, key: string): Promise<void> {
  expect((await api.put(`${base}/api/settings`, { data: { modSources: { modrinth: { url: modrinth!.url }, curseforge: { url } } } })).status()).toBe(204);
  expect((await api.put(`${base}/api/settings/panel.mods.curseforgeKey`, { data: { value: key } })).status()).toBe(204);
  expect((await api.put(`${base}/api/templates/minecraft-curseforge`, { data: SHIPPED_TEMPLATE_SOURCES["minecraft-curseforge"] })).status()).toBeLessThan(300);
}

/** A page for one screenshot variant: the laptop's in `setup` (logged in already), the others in a context of their own; the page's script errors are collected. */
async function variantPage(variant: (typeof SHOT_VARIANTS)[number], setup: BrowserContext): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = variant.suffix === "1280" ? setup : await shotContext(browser, base, variant.viewport, variant.locale, admin);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { context, page, errors };
}

/** A variant's turn ends with no script error; its page and context go. */
async function endTurn(page: Page, context: BrowserContext, errors: string[]): Promise<void> {
  expect(errors).toEqual([]);
  await page.close();
  await context.close();
}

/** The tab, hydrated, with the browse pane's first results in (a minute: a CI machine running test files side by side can take more than the default 30 s). */
async function openTab(page: Page, id: string) {
  await page.goto(`${base}/server/${id}?tab=mods`);
  await page.waitForSelector('[data-island="ModsTab"][data-hydrated="done"]', { state: "attached", timeout: 60_000 });
  await page.locator('[data-testid="mods-results"]').waitFor({ timeout: 60_000 });
}

/** The whole page from its top (closing a dialog gives focus back, which may have scrolled it). */
async function shootTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, name);
}

/** The plan dialog's Apply, then the change's steps to their end (a minute by default: it downloads, snapshots and places). */
async function applyPlan(dialog: Locator, timeout = 60_000): Promise<void> {
  await dialog.locator('[data-testid="mods-plan-confirm"]').click();
  await dialog.locator('[data-testid="mods-change-done"]').waitFor({ timeout });
}

/** A finished change's dialog closed: the tab reads its lists again. */
const closeChange = (dialog: Locator) => dialog.locator(".dialog-actions .btn-primary").click();

/** A plan's dialog dismissed without applying it. */
const cancelPlan = (dialog: Locator) => dialog.locator(".dialog-actions .btn:not(.btn-primary)").click();

/** Waits for the tab's installed list to hold `count` rows. */
const installedRows = (page: Page, count: number) => page.waitForFunction((n) => document.querySelectorAll('[data-testid="mods-row"]').length === n, count);

/** Install on the open project (its card in `scope`): the plan dialog, once it lists what it adds. */
async function installPlan(page: Page, scope: Locator | Page = page): Promise<Locator> {
  await scope.locator('[data-testid="mods-install"]').click();
  const dialog = page.locator('[data-testid="mods-plan-dialog"]');
  await dialog.locator('[data-testid="mods-plan-add"]').waitFor({ timeout: 30_000 });
  return dialog;
}

/** Shoots what is popular for the server, searches for Geyser, opens it and asks for its plan; returns the plan dialog. */
async function planGeyser(page: Page, variant: string) {
  await shootTop(page, `mods-browse-${variant}`);
  await page.locator('[data-testid="mods-search"]').fill("geyser");
  await page.locator('[data-testid="mods-search"]').press("Enter");
  const hit = page.locator(`[data-testid="mods-results"] [data-project="${GEYSER}"]`);
  await hit.waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="mods-results"] > li').length === 1);
  await hit.locator(".mods-link").click();
  const project = page.locator('[data-testid="mods-project-dialog"]');
  await project.locator('[data-testid="mods-install"]').waitFor();
  await shootTop(page, `mods-project-${variant}`);
  await project.locator('[data-testid="mods-install"]').click();
  const dialog = page.locator('[data-testid="mods-plan-dialog"]');
  await dialog.locator('[data-testid="mods-plan"]').waitFor();
  return dialog;
}

describe.if(enabled)("the Mods tab", () => {
  test("search, open Geyser, install it with Fabric API after a plan, see both installed, undo", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    const id = await fabricServer(api, "Modded");
    // The change (a backup, two downloads, an undo restoring the backup) is made once and looked
    // at in every width: made at each, this test took 19–23 s on the loaded machine, once 14–16 s.
    // The phones plan first, on the server with nothing installed, and keep their pages; the
    // laptop's turn applies its plan; the last turn undoes it.
    const turns: { variant: (typeof SHOT_VARIANTS)[number]; context: BrowserContext; page: Page; errors: string[] }[] = [];
    for (const variant of [...SHOT_VARIANTS.slice(1), SHOT_VARIANTS[0]]) {
      const { context, page, errors } = await variantPage(variant, setup);
      turns.push({ variant, context, page, errors });
      page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
      await openTab(page, id);
      if (!variant.locale) expect(await page.locator('[data-testid="mods-platform"] h2').textContent()).toBe("Fabric 1.20.4 · loader 0.15.11");
      expect(await page.locator('[data-testid="mods-row"]').count()).toBe(0);

      const dialog = await planGeyser(page, variant.suffix);
      const added = dialog.locator('[data-testid="mods-plan-add"] li');
      expect(await added.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-project")))).toEqual([GEYSER, FABRIC_API]);
      if (!variant.locale) expect(await added.nth(1).textContent()).toContain(`required by ${modrinth!.project(GEYSER).title}`);
      await shootTop(page, `mods-plan-${variant.suffix}`);
      if (variant.suffix !== "1280") {
        await cancelPlan(dialog);
        continue;
      }
      await applyPlan(dialog);
      expect(await dialog.locator('.mods-step[data-state="done"]').count()).toBe(3);
      await shootTop(page, `mods-done-${variant.suffix}`);
      // The phone's view of the same dialog: the laptop's page at the phone's width.
      await page.setViewportSize(SHOT_VARIANTS[1].viewport);
      await shootTop(page, `mods-done-${SHOT_VARIANTS[1].suffix}`);
      await page.setViewportSize(variant.viewport);
      await closeChange(dialog);
    }

    // Every width reads the tab again: both installed, the undo offered; the last one undoes.
    for (const { variant, page } of turns.sort((a, b) => SHOT_VARIANTS.indexOf(a.variant) - SHOT_VARIANTS.indexOf(b.variant))) {
      if (variant.suffix !== "1280") await openTab(page, id);
      await page.locator('[data-testid="mods-undo"]').waitFor();
      await installedRows(page, 2);
      const titles = await page.locator('[data-testid="mods-row"] .mods-row-title').allTextContents();
      expect(titles.sort()).toEqual([modrinth!.project(FABRIC_API).title, modrinth!.project(GEYSER).title].sort());
      await shootTop(page, `mods-installed-${variant.suffix}`);
    }
    const last = turns.at(-1)!.page;
    await last.locator('[data-testid="mods-undo-button"]').click();
    await last.locator('[data-testid="mods-undo"]').waitFor({ state: "detached", timeout: 30_000 });
    await installedRows(last, 0);
    const files = (await (await api.get(`${base}/proxy/daemon/server/${id}/file/mods`)).json()).files as { name: string }[];
    expect(files.filter((f) => f.name.endsWith(".jar"))).toEqual([]);
    for (const { context, page, errors } of turns) {
      // Hydrated over the server's HTML without a mismatch, and nothing else went wrong on the page.
      expect(errors).toEqual([]);
      await page.close();
      if (context !== setup) await context.close();
    }
    await setup.close();
  }, 240_000);

  test("a modpack: found for the server, its plan lists what it downloads and brings, installed, undone", async () => {
    const pack = await modrinth!.addModpack({
      slug: "kiln-browser-pack",
      title: "Kiln Browser Pack",
      gameVersion: "1.20.4",
      loader: ["fabric-loader", "0.15.11"],
      mods: [{ versionId: "CeSpw2Km" }, { versionId: "BPX6fK06" }],
      overrides: { "config/pack.toml": "pack = true\n" },
      serverOverrides: { "server.properties": "motd=Kiln Browser Pack\n" },
    });
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    const id = await fabricServer(api, "Packed");

    for (const variant of SHOT_VARIANTS) {
      const { context, page, errors } = await variantPage(variant, setup);
      await openTab(page, id);
      const hit = page.locator(`[data-testid="mods-packs-results"] [data-project="${pack.projectId}"]`);
      await hit.waitFor();
      await hit.scrollIntoViewIfNeeded();
      await shoot(page, `mods-packs-${variant.suffix}`);
      await hit.locator(".mods-link").click();
      const dialog = page.locator('[data-testid="mods-plan-dialog"]');
      await dialog.locator('[data-testid="mods-pack-plan"]').waitFor({ timeout: 30_000 });
      // The laptop's turn plans 1.0.0; by the phones' turns 1.1.0 (below) is the newest release.
      if (variant.suffix === "1280") {
        expect(await dialog.locator('[data-testid="mods-pack-files"] li').count()).toBe(2);
        expect(await dialog.locator('[data-testid="mods-pack-overrides"] li').evaluateAll((rows) => rows.map((r) => r.getAttribute("data-path")).sort())).toEqual(["config/pack.toml", "server.properties"]);
      } else expect(await dialog.locator('[data-testid="mods-pack-files"] li').count()).toBe(1);
      await shootTop(page, `mods-pack-plan-${variant.suffix}`);
      if (variant.suffix !== "1280") {
        await cancelPlan(dialog);
        await endTurn(page, context, errors);
        continue;
      }
      await applyPlan(dialog);
      const properties = async () => (await api.get(`${base}/proxy/daemon/server/${id}/file/server.properties`)).text();
      expect(await properties()).toBe("motd=Kiln Browser Pack\n");
      await closeChange(dialog);
      await installedRows(page, 2);

      // A newer version that drops Fabric API and the settings: the pane offers it, its plan says what it removes.
      await modrinth!.addModpackVersion(pack.projectId, { slug: "kiln-browser-pack", title: "Kiln Browser Pack", versionNumber: "1.1.0", gameVersion: "1.20.4", loader: ["fabric-loader", "0.15.11"], mods: [{ versionId: "CeSpw2Km" }] });
      await openTab(page, id);
      await page.locator('[data-testid="mods-pack-update"]').scrollIntoViewIfNeeded();
      await shoot(page, "mods-pack-installed-1280");
      await page.locator('[data-testid="mods-pack-update"]').click();
      await dialog.locator('[data-testid="mods-pack-removes"]').waitFor({ timeout: 30_000 });
      // It brings no settings either: those of 1.0.0, untouched since, go too.
      const removed = await dialog.locator('[data-testid="mods-pack-removes"] li').evaluateAll((rows) => rows.map((r) => r.getAttribute("data-path")));
      expect(removed.sort()).toEqual(["config/pack.toml", `mods/${modrinth!.version("BPX6fK06").files.find((f) => f.primary)!.filename}`, "server.properties"]);
      await shootTop(page, "mods-pack-update-1280");
      await cancelPlan(dialog);

      await page.locator('[data-testid="mods-undo-button"]').click();
      await page.locator('[data-testid="mods-undo"]').waitFor({ state: "detached", timeout: 30_000 });
      expect((await api.get(`${base}/proxy/daemon/server/${id}/file/server.properties`)).status()).toBe(404);

      // The same pack as a file of the user's: uploaded to the node, planned from its copy, installed.
      await page.locator('[data-testid="mods-pack-file"]').setInputFiles({ name: "kiln-browser-pack.mrpack", mimeType: "application/x-modrinth-modpack+zip", buffer: Buffer.from(modrinth!.jar(pack.versionId)) });
      await dialog.locator('[data-testid="mods-pack-plan"]').waitFor({ timeout: 30_000 });
      expect(await dialog.locator('[data-testid="mods-pack-files"] li').count()).toBe(2);
      await applyPlan(dialog);
      expect(await properties()).toBe("motd=Kiln Browser Pack\n");
      expect(errors).toEqual([]);
      await page.close();
    }
    await setup.close();
  }, 240_000);

  test("Add server from a modpack: its address chooses the template and version; the server is created, the pack placed after the install", async () => {
    await modrinth!.addModpack({ slug: "kiln-start-pack", title: "Kiln Start Pack", gameVersion: "1.20.4", loader: ["fabric-loader", "0.15.11"], mods: [{ versionId: "CeSpw2Km" }], overrides: { "config/start.toml": "start = true\n" } });
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    expect((await api.put(`${base}/api/settings`, { data: { modSources: { modrinth: { url: modrinth!.url } } } })).status()).toBe(204);
    const echo = echoTemplate();
    const template = { ...echo, name: "fabric-start", display: "Fabric (modpacks)", type: "minecraft-java", addons: { platform: "fabric", gameVersion: "${version}" }, data: { ...echo.data, version: { display: "Minecraft version", desc: "", type: "string", value: "1.19.2", required: true, userEdit: true } } };
    expect((await api.put(`${base}/api/templates/fabric-start`, { data: template })).status()).toBeLessThan(300);

    for (const variant of SHOT_VARIANTS) {
      const context = variant.suffix === "1280" ? setup : await shotContext(browser, base, variant.viewport, variant.locale, admin);
      const page = await context.newPage();
      await page.goto(`${base}/addserver`);
      await page.locator('[data-testid="choose-modpack"] input[name="modpack"]').fill("https://modrinth.com/modpack/kiln-start-pack");
      await page.locator('[data-testid="choose-modpack"] button[type="submit"]').click();
      const form = page.locator('[data-testid="create-server"]');
      await form.waitFor();
      expect(await form.locator('input[name="template"]').inputValue()).toBe("fabric-start");
      expect(await form.locator('[name="var.version"]').inputValue()).toBe("1.20.4");
      await shootTop(page, `addserver-modpack-${variant.suffix}`);
      if (variant.suffix !== "1280") {
        await page.close();
        await context.close();
        continue;
      }
      await form.locator('input[name="name"]').fill("Started from a pack");
      await form.locator('button[type="submit"]').click();
      await page.waitForURL(/\/server\/[0-9a-f]{8}/);
      const id = new URL(page.url()).pathname.split("/").pop()!;
      await eventually(async () => (await api.get(`${base}/proxy/daemon/server/${id}/file/config/start.toml`)).status() === 200, 60_000, "the pack to be placed after the install");
      await page.close();
    }
    await setup.close();
  }, 120_000);

  test("Add server from a CurseForge pack: found by words, chosen, it sets the CurseForge template and the pack's project, file and Java", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    await curseforgePacks(api, packs!.sources.curseforge, PACKS_KEY);
    try {
      for (const variant of SHOT_VARIANTS) {
        const { context, page, errors } = await variantPage(variant, setup);
        await page.goto(`${base}/addserver`);
        // Found by words on CurseForge, then chosen: its newest release is the file.
        const finder = page.locator('[data-testid="find-modpack"]');
        await finder.locator('input[name="packs"]').fill("pack");
        await finder.locator('select[name="source"]').selectOption("curseforge");
        await finder.locator('button[type="submit"]').click();
        await page.locator('[data-testid="pack-hits"]').waitFor();
        await shootTop(page, `addserver-find-pack-${variant.suffix}`);
        await page.locator('[data-testid="pack-hits"] li').first().locator('[data-testid="pack-choose"]').click();
        const form = page.locator('[data-testid="create-server"]');
        await form.waitFor();
        expect(await form.locator('input[name="template"]').inputValue()).toBe("minecraft-curseforge");
        expect([await form.locator('[name="var.projectId"]').inputValue(), await form.locator('[name="var.fileId"]').inputValue(), await form.locator('[name="var.java"]').inputValue()]).toEqual(["100", "1001", "17"]);
        await shootTop(page, `addserver-curseforge-${variant.suffix}`);
        if (variant.suffix !== "1280") {
          await endTurn(page, context, errors);
          continue;
        }
        // Created on the panel's own node, which installs it with the panel's CurseForge key.
        await form.locator('input[name="name"]').fill("CurseForge pack");
        await form.locator('button[type="submit"]').click();
        await page.waitForURL(/\/server\/[0-9a-f]{8}/);
        const id = new URL(page.url()).pathname.split("/").pop()!;
        // Forge's installer, which the server pack ships, runs after the pack is unpacked.
        await eventually(async () => (await api.get(`${base}/proxy/daemon/server/${id}/file/libraries/net/minecraftforge/forge/1.20.1-47.2.0/unix_args.txt`)).status() === 200, 60_000, "the pack's server pack to be installed");
        expect((await api.get(`${base}/proxy/daemon/server/${id}/file/mods/pack-mod.jar`)).status()).toBe(200);
        expect(errors).toEqual([]);
        await page.close();
      }
    } finally {
      await curseforgePacks(api, curseforge!.url, CURSEFORGE_KEY);
      await setup.close();
    }
  }, 120_000);

  test("a CurseForge pack's file: the version card lists the pack's files, the installed one marked; the plan says what the switch does", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    await curseforgePacks(api, packs!.sources.curseforge, PACKS_KEY);
    try {
      const nodes = await (await api.get(`${base}/api/nodes`)).json();
      const created = await api.post(`${base}/api/servers`, { data: { name: "Pack files", node: nodes[0].id, environment: { type: "standard" }, modpack: { source: "curseforge", projectId: "100", versionId: "1001" } } });
      expect(created.status()).toBe(201);
      const { id } = await created.json();
      await eventually(async () => (await api.get(`${base}/proxy/daemon/server/${id}/file/libraries/net/minecraftforge/forge/1.20.1-47.2.0/unix_args.txt`)).status() === 200, 60_000, "the pack's install");
      for (const variant of SHOT_VARIANTS) {
        const { context, page, errors } = await variantPage(variant, setup);
        await openTab(page, id);
        const select = page.locator('[data-testid="mods-pack-files-select"]');
        await select.waitFor();
        expect(await select.locator("option[disabled]").textContent()).toContain("file 1001");
        await shootTop(page, `mods-pack-files-${variant.suffix}`);
        await select.selectOption("1003");
        await page.locator('[data-testid="mods-pack-files-plan"]').click();
        const dialog = page.locator('[data-testid="mods-plan-dialog"]');
        await dialog.locator('[data-testid="mods-version-plan"]').waitFor({ timeout: 30_000 });
        expect(await dialog.locator('[data-testid="mods-version-plan"]').textContent()).toContain("pack 100: file 1001 → file 1003");
        await shoot(page, `mods-pack-plan-${variant.suffix}`);
        if (variant.suffix === "1280") {
          expect(errors).toEqual([]);
          await page.close();
        } else await endTurn(page, context, errors);
      }
    } finally {
      await curseforgePacks(api, curseforge!.url, CURSEFORGE_KEY);
      await setup.close();
    }
  }, 180_000);

  test("the Minecraft version: the pane offers Modrinth's releases, the plan names what each add-on does, the switch installs again and can be undone", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    expect((await api.put(`${base}/api/settings`, { data: { modSources: { modrinth: { url: modrinth!.url } } } })).status()).toBe(204);
    expect((await api.put(`${base}/api/templates/fabric-switch`, { data: { ...switchTemplate(), type: "minecraft-java" } })).status()).toBeLessThan(300);
    const nodes = await (await api.get(`${base}/api/nodes`)).json();
    const created = await api.post(`${base}/api/servers`, { data: { name: "Switched", node: nodes[0].id, template: "fabric-switch", environment: { type: "standard" } } });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    const installed = async () => (await api.get(`${base}/proxy/daemon/server/${id}/file/installed.txt`)).text();
    await eventually(async () => (await installed()) === "Minecraft 1.20.4", 30_000, "the first install");
    // Geyser (for 1.20.4 only) and Fabric API (which has a 1.20.1 version): the plan names what each does.
    const planned = await (await api.post(`${base}/api/servers/${id}/mods/plan`, { data: { source: "modrinth", projectId: GEYSER } })).json();
    const started = await (await api.post(`${base}/api/servers/${id}/mods/plan/${planned.planId}/apply`)).json();
    await eventually(async () => (await (await api.get(`${base}/api/servers/${id}/mods/changes/${started.changeId}`)).json()).state === "done", 30_000, "Geyser to be installed");

    for (const variant of SHOT_VARIANTS) {
      const { context, page, errors } = await variantPage(variant, setup);
      await openTab(page, id);
      const select = page.locator('[data-testid="mods-versions-select"]');
      await select.waitFor();
      await select.selectOption("1.20.1");
      await page.locator('[data-testid="mods-versions"]').scrollIntoViewIfNeeded();
      await shoot(page, `mods-versions-${variant.suffix}`);
      await page.locator('[data-testid="mods-versions-plan"]').click();
      const dialog = page.locator('[data-testid="mods-plan-dialog"]');
      await dialog.locator('[data-testid="mods-version-plan"]').waitFor({ timeout: 30_000 });
      expect(await dialog.locator('[data-testid="mods-version-updates"] li').count()).toBe(1);
      expect(await dialog.locator('[data-testid="mods-version-missing"] li').count()).toBe(1);
      await shootTop(page, `mods-version-plan-${variant.suffix}`);
      if (variant.suffix !== "1280") {
        await cancelPlan(dialog);
        await endTurn(page, context, errors);
        continue;
      }
      await applyPlan(dialog);
      expect(await dialog.locator('[data-step="install"]').getAttribute("data-state")).toBe("done");
      await shootTop(page, `mods-version-done-${variant.suffix}`);
      expect(await installed()).toBe("Minecraft 1.20.1");
      // Closed, the tab is read again: its heading names the new version.
      await closeChange(dialog);
      await page.locator('[data-testid="mods-platform"]', { hasText: "1.20.1" }).waitFor();
      await page.waitForSelector('[data-island="ModsTab"][data-hydrated="done"]', { state: "attached" });
      await page.locator('[data-testid="mods-undo-button"]').click();
      await eventually(async () => (await installed()) === "Minecraft 1.20.4", 60_000, "the undo to restore the backup");
      await page.locator('[data-testid="mods-platform"]', { hasText: "1.20.4" }).waitFor();
      expect(errors).toEqual([]);
      await page.close();
    }
    await setup.close();
  }, 180_000);

  test("the loader's version: the pane lists Fabric's loaders for the Minecraft version, the plan keeps the add-ons, the switch installs the loader and the heading names it", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    expect((await api.put(`${base}/api/settings`, { data: { modSources: { modrinth: { url: modrinth!.url }, fabric: { url: lists!.fabric } } } })).status()).toBe(204);
    expect((await api.put(`${base}/api/templates/fabric-loader-switch`, { data: { ...loaderTemplate(), type: "minecraft-java" } })).status()).toBeLessThan(300);
    const nodes = await (await api.get(`${base}/api/nodes`)).json();
    const created = await api.post(`${base}/api/servers`, { data: { name: "Loader switched", node: nodes[0].id, template: "fabric-loader-switch", environment: { type: "standard" } } });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    const installed = async () => (await api.get(`${base}/proxy/daemon/server/${id}/file/installed.txt`)).text();
    await eventually(async () => (await installed()) === "Minecraft 1.19.2 with loader 0.14.11", 30_000, "the first install");

    for (const variant of SHOT_VARIANTS) {
      const { context, page, errors } = await variantPage(variant, setup);
      await openTab(page, id);
      const select = page.locator('[data-testid="mods-loader-select"]');
      await select.waitFor();
      expect(await select.locator("option").allTextContents()).toHaveLength(3);
      expect(await select.inputValue()).toBe("latest");
      // The first variant switches to 0.14.12; the others plan back from it.
      const now = variant.suffix === "1280" ? "0.14.11" : "0.14.12";
      expect(await select.locator("option[disabled]").getAttribute("value")).toBe(now);
      await select.selectOption(now === "0.14.11" ? "0.14.12" : "0.14.11");
      await page.locator('[data-testid="mods-versions"]').scrollIntoViewIfNeeded();
      await shoot(page, `mods-loader-${variant.suffix}`);
      await page.locator('[data-testid="mods-loader-plan"]').click();
      const dialog = page.locator('[data-testid="mods-plan-dialog"]');
      await dialog.locator('[data-testid="mods-version-plan"]').waitFor({ timeout: 30_000 });
      expect(await dialog.locator('[data-testid="mods-version-updates"]').count()).toBe(0);
      await shootTop(page, `mods-loader-plan-${variant.suffix}`);
      if (variant.suffix !== "1280") {
        await cancelPlan(dialog);
        await endTurn(page, context, errors);
        continue;
      }
      expect(await dialog.textContent()).toContain("0.14.11 → 0.14.12");
      await applyPlan(dialog);
      expect(await dialog.locator('[data-step="install"]').textContent()).toContain("0.14.12");
      expect(await installed()).toBe("Minecraft 1.19.2 with loader 0.14.12");
      await closeChange(dialog);
      await page.locator('[data-testid="mods-platform"]', { hasText: "0.14.12" }).waitFor();
      expect(errors).toEqual([]);
      await page.close();
    }
    await setup.close();
  }, 180_000);

  test("the platform: a Paper server is offered Purpur by the template that installs it; the plan names both; the switch installs Purpur and the heading names it", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    expect((await api.put(`${base}/api/settings`, { data: { modSources: { modrinth: { url: modrinth!.url } } } })).status()).toBe(204);
    // The shipped templates, their installs a quick stand-in writing what each platform writes, their versions listed.
    for (const [name, brand] of [["minecraft-paper", "Paper"], ["minecraft-purpur", "Purpur"]] as const) {
      const shipped = SHIPPED_TEMPLATE_SOURCES[name] as Record<string, any>;
      const quick = { ...shipped, install: [{ type: "writefile", target: "version_history.json", text: `{"currentVersion":"git-${brand}-1 (MC: \${version})"}` }], data: { ...shipped.data, version: { ...shipped.data.version, options: [{ value: "1.21.1" }] } } };
      expect((await api.put(`${base}/api/templates/${name}`, { data: quick })).status()).toBeLessThan(300);
    }
    const nodes = await (await api.get(`${base}/api/nodes`)).json();
    const created = await api.post(`${base}/api/servers`, { data: { name: "Platform switched", node: nodes[0].id, template: "minecraft-paper", variables: { version: "1.21.1" }, environment: { type: "standard" } } });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    await eventually(async () => (await api.get(`${base}/proxy/daemon/server/${id}/file/version_history.json`)).status() === 200, 30_000, "the first install");

    for (const variant of SHOT_VARIANTS) {
      const { context, page, errors } = await variantPage(variant, setup);
      await openTab(page, id);
      const select = page.locator('[data-testid="mods-platforms-select"]');
      await select.waitFor();
      // The first variant switches to Purpur; the others are offered Paper back.
      const offered = variant.suffix === "1280" ? "minecraft-purpur" : "minecraft-paper";
      expect(await select.locator("option:not([disabled])").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual([offered]);
      await page.locator('[data-testid="mods-versions"]').scrollIntoViewIfNeeded();
      await shoot(page, `mods-platform-${variant.suffix}`);
      await page.locator('[data-testid="mods-platforms-plan"]').click();
      const dialog = page.locator('[data-testid="mods-plan-dialog"]');
      await dialog.locator('[data-testid="mods-version-plan"]').waitFor({ timeout: 30_000 });
      await shootTop(page, `mods-platform-plan-${variant.suffix}`);
      if (variant.suffix !== "1280") {
        await cancelPlan(dialog);
        await endTurn(page, context, errors);
        continue;
      }
      expect(await dialog.textContent()).toContain("Paper → Purpur, for Minecraft 1.21.1");
      await applyPlan(dialog);
      expect(await dialog.locator('[data-step="install"]').textContent()).toContain("Purpur");
      await closeChange(dialog);
      await page.locator('[data-testid="mods-platform"]', { hasText: "Purpur" }).waitFor();
      expect(errors).toEqual([]);
      await page.close();
    }
    await setup.close();
  }, 180_000);

  test("a CurseForge pack onto a Fabric server: the modpack pane's source list finds it; its plan names the template that will install it; applied, the server is the pack's", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    const id = await fabricServer(api, "Pack onto");
    await curseforgePacks(api, packs!.sources.curseforge, PACKS_KEY);
    try {
      for (const variant of SHOT_VARIANTS) {
        const { context, page, errors } = await variantPage(variant, setup);
        await openTab(page, id);
        await page.locator('[data-testid="mods-packs-source"]').selectOption("curseforge");
        const hit = page.locator('[data-testid="mods-packs-results"] [data-project="100"]');
        await hit.waitFor();
        await page.locator('[data-testid="mods-packs-browse"]').scrollIntoViewIfNeeded();
        await shoot(page, `mods-packs-curseforge-${variant.suffix}`);
        await hit.locator(".mods-link").click();
        const dialog = page.locator('[data-testid="mods-plan-dialog"]');
        await dialog.locator('[data-testid="mods-version-plan"]').waitFor({ timeout: 30_000 });
        expect(await dialog.textContent()).toContain("Minecraft: Java Edition (CurseForge modpack)");
        await shootTop(page, `mods-packs-curseforge-plan-${variant.suffix}`);
        if (variant.suffix !== "1280") {
          await cancelPlan(dialog);
          await endTurn(page, context, errors);
          continue;
        }
        await applyPlan(dialog, 90_000);
        expect((await api.get(`${base}/proxy/daemon/server/${id}/file/mods/pack-mod.jar`)).status()).toBe(200);
        await closeChange(dialog);
        expect(errors).toEqual([]);
        await page.close();
      }
    } finally {
      await curseforgePacks(api, curseforge!.url, CURSEFORGE_KEY);
    }
    await setup.close();
  }, 240_000);

  test("CurseForge: chosen as the source, WorldGuard is found for a Paper server and installed with WorldEdit", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    expect((await api.put(`${base}/api/settings`, { data: { modSources: { modrinth: { url: modrinth!.url }, curseforge: { url: curseforge!.url } } } })).status()).toBe(204);
    expect((await api.put(`${base}/api/settings/panel.mods.curseforgeKey`, { data: { value: CURSEFORGE_KEY } })).status()).toBe(204);
    const id = await minecraftServer(api, "Cursed", { target: "version_history.json", text: '{"currentVersion":"git-Paper-196 (MC: 1.20)"}' });

    for (const variant of SHOT_VARIANTS) {
      const { context, page, errors } = await variantPage(variant, setup);
      await openTab(page, id);
      await page.locator('[data-testid="mods-source"]').selectOption("curseforge");
      await page.locator('[data-testid="mods-results"] [data-source="curseforge"]').first().waitFor();
      await page.locator('[data-testid="mods-search"]').fill("worldguard");
      await page.locator('[data-testid="mods-search"]').press("Enter");
      const hit = page.locator('[data-testid="mods-results"] [data-project="31054"]');
      await hit.waitFor();
      // CurseForge's own categories of Bukkit plugins, as CurseForge names them; WorldGuard is among the anti-griefing tools.
      const category = page.locator('[data-testid="mods-category"]');
      expect(await category.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).textContent))).toContain("Anti-Griefing Tools");
      await category.selectOption("116");
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="mods-results"] > li').length === 1);
      await hit.waitFor();
      await page.locator('[data-testid="mods-browse"]').scrollIntoViewIfNeeded();
      await shoot(page, `mods-curseforge-${variant.suffix}`);
      if (variant.suffix !== "1280") {
        await endTurn(page, context, errors);
        continue;
      }
      await hit.locator(".mods-link").click();
      const dialog = await installPlan(page);
      expect(await dialog.locator('[data-testid="mods-plan-add"] li').count()).toBe(2);
      await shootTop(page, "mods-curseforge-plan-1280");
      await applyPlan(dialog);
      await closeChange(dialog);
      await installedRows(page, 2);
      expect(errors).toEqual([]);
      await page.close();
    }
    await setup.close();
  }, 180_000);

  test("Hangar: offered on a Paper server, ViaBackwards is found and installed with ViaVersion; a dependency Hangar does not host is named in the plan", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    expect((await api.put(`${base}/api/settings`, { data: { modSources: { modrinth: { url: modrinth!.url }, hangar: { url: hangar!.url } } } })).status()).toBe(204);
    const id = await minecraftServer(api, "Hangared", { target: "version_history.json", text: '{"currentVersion":"git-Paper-119 (MC: 1.21.1)"}' });

    for (const variant of SHOT_VARIANTS) {
      const { context, page, errors } = await variantPage(variant, setup);
      await openTab(page, id);
      expect(await page.locator('[data-testid="mods-source"] option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(["modrinth", "curseforge", "hangar", "spiget"]);
      await page.locator('[data-testid="mods-source"]').selectOption("hangar");
      await page.locator('[data-testid="mods-results"] [data-source="hangar"]').first().waitFor();
      await page.locator('[data-testid="mods-search"]').fill("allow");
      await page.locator('[data-testid="mods-search"]').press("Enter");
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="mods-results"] > li').length === 2);
      const hit = page.locator(`[data-testid="mods-results"] [data-project="${HANGAR.viaBackwards}"]`);
      // Hangar's own categories, not Modrinth's.
      const category = page.locator('[data-testid="mods-category"]');
      expect(await category.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(["", ...categoriesOf("hangar")]);
      await page.locator('[data-testid="mods-browse"]').scrollIntoViewIfNeeded();
      await shoot(page, `mods-hangar-${variant.suffix}`);
      // Maintenance needs ProtocolLib, which is not on Hangar: its plan says so. Found among the admin tools.
      await page.locator('[data-testid="mods-search"]').fill("maintenance");
      const asked = hangar!.requests.length;
      await category.selectOption("admin_tools");
      const maintenance = page.locator(`[data-testid="mods-results"] [data-project="${HANGAR.maintenance}"]`);
      await maintenance.waitFor();
      expect(hangar!.requests.slice(asked).map((r) => new URL(r.path, "http://h").searchParams.get("category"))).toContain("admin_tools");
      await maintenance.locator(".mods-link").click();
      const warned = await installPlan(page);
      expect(await warned.textContent()).toContain("ProtocolLib");
      await shootTop(page, `mods-hangar-plan-${variant.suffix}`);
      if (variant.suffix !== "1280") {
        await endTurn(page, context, errors);
        continue;
      }
      await page.keyboard.press("Escape");
      await page.locator('[data-testid="mods-search"]').fill("allow");
      await category.selectOption("");
      await hit.waitFor();
      await hit.locator(".mods-link").click();
      const dialog = await installPlan(page);
      expect(await dialog.locator('[data-testid="mods-plan-add"] li').count()).toBe(2);
      await applyPlan(dialog);
      await closeChange(dialog);
      await installedRows(page, 2);
      expect(await page.locator('[data-testid="mods-installed"]').textContent()).toContain("ViaVersion");
      expect(errors).toEqual([]);
      await page.close();
    }
    await setup.close();
  }, 180_000);

  test("Spiget: offered on a Spigot server (Hangar is not), EssentialsX found, its description as text, installed from the file Kiln pinned", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const api = setup.request;
    expect((await api.put(`${base}/api/settings`, { data: { modSources: { modrinth: { url: modrinth!.url }, spiget: { url: spiget!.url } } } })).status()).toBe(204);
    const id = await minecraftServer(api, "Spigoted", { target: "spigot-1.21.1.jar", text: "" });

    for (const variant of SHOT_VARIANTS) {
      const { context, page, errors } = await variantPage(variant, setup);
      await openTab(page, id);
      expect(await page.locator('[data-testid="mods-source"] option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(["modrinth", "curseforge", "spiget"]);
      await page.locator('[data-testid="mods-source"]').selectOption("spiget");
      await page.locator('[data-testid="mods-search"]').fill("essentials");
      await page.locator('[data-testid="mods-search"]').press("Enter");
      const hit = page.locator(`[data-testid="mods-results"] [data-project="${SPIGET.essentials}"]`);
      await hit.waitFor();
      await page.locator('[data-testid="mods-browse"]').scrollIntoViewIfNeeded();
      await shoot(page, `mods-spiget-${variant.suffix}`);
      await hit.locator(".mods-link").click();
      const project = page.locator('[data-testid="mods-project-dialog"]');
      await project.locator('[data-testid="mods-install"]').waitFor();
      expect(await project.textContent()).toContain("The essential plugin suite");
      expect(await project.locator("script, img").count()).toBe(0);
      await shootTop(page, `mods-spiget-project-${variant.suffix}`);
      if (variant.suffix !== "1280") {
        await endTurn(page, context, errors);
        continue;
      }
      const dialog = await installPlan(page, project);
      await applyPlan(dialog);
      await closeChange(dialog);
      await installedRows(page, 1);
      expect(errors).toEqual([]);
      await page.close();
    }
    await setup.close();
  }, 180_000);

  test("without JavaScript: a search, a project's card, its plan confirmed, the change made and the tab back", async () => {
    const setup = await shotContext(browser, base, SHOT_VARIANTS[0].viewport, null, admin);
    const id = await fabricServer(setup.request, "Plain");
    await setup.close();
    for (const variant of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, variant.viewport, variant.locale, admin, { javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${base}/server/${id}?tab=mods`);
      await page.locator('[data-testid="mods-search"]').fill("geyser");
      await page.locator('[data-testid="mods-browse"] button[type="submit"]').click();
      await page.locator(`[data-testid="mods-results"] [data-project="${GEYSER}"] a.mods-link`).click();
      await page.locator('[data-testid="mods-project-card"] [data-testid="mods-install"]').click();
      await page.locator('[data-testid="mods-confirm"]').waitFor();
      expect(await page.locator('[data-testid="mods-confirm"] .mods-plan-row').count()).toBe(2);
      await page.locator('[data-testid="mods-confirm"]').scrollIntoViewIfNeeded();
      await shoot(page, `mods-noscript-plan-${variant.suffix}`);
      // Applied on the last turn (the plans before it find nothing installed yet).
      if (variant === SHOT_VARIANTS.at(-1)) {
        await page.locator('[data-testid="mods-confirm-apply"]').click();
        await page.waitForURL(/\?tab=mods$/);
        await eventually(async () => {
          await page.reload();
          return (await page.locator('[data-testid="mods-row"]').count()) === 2;
        }, 30_000, "the change to be done");
        await shootTop(page, `mods-noscript-done-${variant.suffix}`);
      }
      await context.close();
    }
  }, 120_000);
});
