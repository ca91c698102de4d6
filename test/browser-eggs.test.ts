// Eggs in the template editor and the template list, in Chromium at 1366 and 390 px: an egg opened
// from a file is offered for conversion as an egg, converted with its notes listed, saved, and
// listed with its source; an egg that cannot run is not converted and the refusal names the field.
// Screenshots go to KILN_SHOTS (a folder) when it is set, to be looked at.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { logInAsAdmin, browserPanelForFile } from "./helpers/browser-panel";
import { serveFolder } from "./helpers/template-folder-server";
import { SETTING_KEYS } from "../server/services/settings";
import { sidewaysOverflow } from "./helpers/browser";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const EGG = readFileSync(join(import.meta.dir, "fixtures/kiln-eggs/ptdl-v2.json"));
const EDITOR = '[data-island="TemplateEditor"]';
const shot = async (page: Page, name: string) => {
  if (process.env.KILN_SHOTS) await page.screenshot({ path: join(process.env.KILN_SHOTS, `${name}.png`), fullPage: true });
};

async function openEgg(page: Page, buffer: Buffer): Promise<void> {
  await page.goto(`${base}/addtemplate`);
  await page.waitForSelector(`${EDITOR}[data-hydrated="done"] [data-template-editor]`);
  await page.setInputFiles(`${EDITOR} input[type="file"]`, { name: "egg-block-game.json", mimeType: "application/json", buffer });
  await page.waitForSelector(`${EDITOR} [data-convert-offer="egg"]`);
}

describe.if(enabled)("eggs in the template editor", () => {
  for (const [width, height] of [[1366, 900], [390, 844]] as const) {
    test(`at ${width} px: an egg is offered, converted with its notes, saved and listed as an egg`, async () => {
      const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
      await logInAsAdmin(page, base);
      await openEgg(page, EGG);
      expect(await page.textContent(`${EDITOR} [data-convert-offer="egg"]`)).toContain("Pterodactyl or Pelican egg");
      await shot(page, `egg-offer-${width}`);
      await page.click(`${EDITOR} [data-convert]`);
      await page.waitForSelector(`${EDITOR} [data-conversion-notes]`);
      const notes = await page.$$eval(`${EDITOR} [data-note]`, (els) => els.map((e) => e.getAttribute("data-note")));
      expect(notes).toEqual(expect.arrayContaining(["eggFeatureEula", "eggFeatureJava", "eggFeaturePidLimit"]));
      expect(await page.textContent(`${EDITOR} [data-conversion-notes]`)).toContain("eula.txt is written before each start");
      await shot(page, `egg-converted-${width}`);
      // Nothing on the page is wider than the screen.
      expect(await sidewaysOverflow(page)).toEqual([]);

      const id = `block-game-${width}`;
      await page.fill(`${EDITOR} input[name="name"]`, id);
      await page.click(`${EDITOR} [data-save-template]`);
      await page.waitForURL(`${base}/template/${id}`);
      const stored = await (await page.request.get(`${base}/api/templates/${id}`)).json();
      expect(stored.source).toBe("egg");
      expect(stored.environment).toMatchObject({ type: "docker", conventions: "egg", image: "ghcr.io/kiln-test/yolk:java_21" });

      await page.goto(`${base}/template`);
      expect(await page.textContent(`[data-template="${id}"] [data-source="egg"]`)).toBe("Egg");
      await shot(page, `template-list-${width}`);
      expect(await sidewaysOverflow(page)).toEqual([]);
    }, 90_000);
  }

  // A published egg (../shared/fixtures, not part of Kiln): its platform is read from its install script.
  const PAPER_EGG = join(import.meta.dir, "../../shared/fixtures/eggs/minecraft/java/paper/pterodactyl-egg-paper.json");
  test.if(existsSync(PAPER_EGG))("the published Paper egg states its platform: the note shows, in a right-to-left locale too", async () => {
    for (const locale of ["en_US", "ar_SA"]) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addCookies([{ name: "kiln_locale", value: locale, url: base }]);
      const page = await context.newPage();
      await logInAsAdmin(page, base);
      await openEgg(page, readFileSync(PAPER_EGG));
      await page.click(`${EDITOR} [data-convert]`);
      await page.waitForSelector(`${EDITOR} [data-conversion-notes]`);
      expect(await page.$$eval(`${EDITOR} [data-note]`, (els) => els.map((e) => e.getAttribute("data-note")))).toContain("eggPlatform");
      expect(await page.textContent(`${EDITOR} [data-note="eggPlatform"]`)).toContain("paper, ${MINECRAFT_VERSION}");
      await shot(page, locale === "ar_SA" ? "egg-platform-ar-390" : "egg-platform-390");
      expect(await sidewaysOverflow(page)).toEqual([]);
      await context.close();
    }
  }, 60_000);

  test("a converted egg's variable checks are edited in the variable form; a pattern RE2 cannot run is refused by the save, naming the field", async () => {
    const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await logInAsAdmin(page, base);
    await openEgg(page, EGG);
    await page.click(`${EDITOR} [data-convert]`);
    await page.click(`${EDITOR} [data-section="variables"]`);
    await page.click(`${EDITOR} [data-variable="LEVEL"] [data-edit]`);
    const rules = ".defedit-sub [data-variable-rules]";
    await page.waitForSelector(`${rules}[open]`);
    const input = (label: string) => `${rules} label.field:has(> .field-label:text-is("${label}")) input`;
    expect(await page.inputValue(input("Shortest length"))).toBe("3");
    expect(await page.inputValue(input("Longest length"))).toBe("16");
    expect(await page.inputValue(input("Pattern"))).toBe("^[\\p{L}\\p{M}\\p{N}_-]+$");
    // The field says which syntax; the engine is the server's, so the save judges the pattern.
    expect(await page.textContent(rules)).toContain("RE2 syntax");
    await shot(page, "egg-variable-rules-390");
    await page.fill(input("Pattern"), "^(?=a)[a-z]+$");
    await page.click(".defedit-sub [data-apply]");
    await page.fill(`${EDITOR} input[name="name"]`, "refused-pattern");
    await page.click(`${EDITOR} [data-save-template]`);
    await page.waitForSelector(".toast-error");
    expect(await page.textContent(".toast-error")).toContain("data.LEVEL.rules");
    expect((await page.request.get(`${base}/api/templates/refused-pattern`)).status()).toBe(404);
    await page.click(`${EDITOR} [data-variable="LEVEL"] [data-edit]`);
    await page.waitForSelector(`${rules}[open]`);
    await page.fill(input("Pattern"), "^[a-z]+$");
    await page.fill(input("Longest length"), "");
    await page.click(".defedit-sub [data-apply]");
    await page.click(`${EDITOR} [data-value="json"]`);
    const json = JSON.parse(await page.inputValue(`${EDITOR} textarea.defedit-json`));
    expect(json.data.LEVEL.rules).toEqual({ minLength: 3, pattern: "^[a-z]+$" });
  }, 60_000);

  for (const javaScriptEnabled of [true, false]) {
    test(`the import dialog ${javaScriptEnabled ? "with" : "without"} script: an egg repository's egg imported, what was read differently listed on its page`, async () => {
      // Laid out as the egg repositories are: a folder per game holding egg-<name>.json.
      const root = mkdtempSync(join(tmpdir(), "kiln-egg-repo-"));
      mkdirSync(join(root, "block"));
      writeFileSync(join(root, "block/egg-block-game.json"), EGG);
      const repository = serveFolder(root);
      try {
        const page = await (await browser.newContext({ javaScriptEnabled, viewport: { width: 390, height: 844 } })).newPage();
        await logInAsAdmin(page, base);
        expect((await page.request.post(`${base}/api/settings`, { data: { [SETTING_KEYS.templateRepositories]: repository.url } })).status()).toBeLessThan(300);
        await page.goto(`${base}/template?import=1#import`);
        // Under its own id: Import the first time, Replace once the other run imported it from its own repository.
        await page.click(`[data-repository="${repository.url}"] [data-offer="block-game"] button[data-import-as="block-game"]`);
        await page.waitForURL(/\/template\/block-game\?imported=/);
        expect(await page.textContent(".alert, .flash, [role=status]")).toBeTruthy();
        expect(await page.$$eval("[data-conversion-notes] [data-note]", (els) => els.map((e) => e.getAttribute("data-note")))).toEqual(expect.arrayContaining(["eggFeatureEula", "eggFeatureJava"]));
        await shot(page, `egg-imported-${javaScriptEnabled ? "script" : "noscript"}-390`);
        expect(await sidewaysOverflow(page)).toEqual([]);
      } finally {
        repository.stop();
        rmSync(root, { recursive: true, force: true });
      }
    }, 60_000);
  }

  test("an egg that cannot run is not converted: the refusal names the field", async () => {
    const page = await (await browser.newContext()).newPage();
    await logInAsAdmin(page, base);
    const egg = JSON.parse(EGG.toString());
    egg.config.files = JSON.stringify({ "../outside.txt": { parser: "file", find: { a: "b" } } });
    await openEgg(page, Buffer.from(JSON.stringify(egg)));
    await page.click(`${EDITOR} [data-convert]`);
    await page.waitForSelector(".toast");
    expect((await page.$$eval(".toast", (els) => els.map((e) => e.textContent ?? ""))).join(" ")).toContain("config.files.../outside.txt is not valid");
    expect(await page.isVisible(`${EDITOR} [data-convert-offer="egg"]`)).toBe(true);
  }, 60_000);
});
