// A PufferPanel 2.x template pasted into the template editor with nothing to tell it from Kiln's
// own format (its variables leave required and userEdit unsaid, as 2.x files do): the offer says
// which reading converting takes, the conversion lists what it wrote out, the variable holding
// JVM arguments comes with "Several arguments" ticked, and what is saved keeps PufferPanel's
// meaning (not editable by users, not required, split into words). Screenshots at laptop and
// phone widths and right to left when KILN_SHOTS names a folder.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { logInAsAdmin, browserPanelForFile, BROWSER_ADMIN } from "./helpers/browser-panel";
import { SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";

const enabled = hasChromium();
let browser: import("playwright-core").Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

/** Written as PufferPanel 2.x writes (the official minecraft-sponge's shape): flags left out. */
const UNMARKED_2X = {
  type: "minecraft-java",
  display: "Sponge - Minecraft",
  install: [{ type: "command", commands: ["echo install"] }],
  run: { stop: "stop", command: "java -Xmx${memory}M ${extraArgs} -jar server.jar nogui" },
  data: {
    memory: { value: "1024", display: "Memory (MiB)", desc: "How much memory", type: "integer" },
    extraArgs: { value: "-XX:+UseG1GC -XX:+AlwaysPreTouch", display: "JVM Arguments", desc: "Extra JVM arguments" },
    motd: { value: "A Minecraft Server", display: "MOTD", desc: "Server message", userEdit: true },
  },
  environment: { type: "tty" },
};

const EDITOR = '[data-island="TemplateEditor"]';
const SUB = ".defedit-sub";

async function pasteUnmarked(page: Page): Promise<void> {
  await page.goto(`${base}/addtemplate`);
  await page.waitForSelector(`${EDITOR}[data-hydrated="done"] [data-template-editor]`);
  await page.click(`${EDITOR} [data-value="json"]`);
  await page.fill(`${EDITOR} textarea.defedit-json`, JSON.stringify(UNMARKED_2X, null, 2));
  await page.click(`${EDITOR} [data-value="editor"]`);
  await page.waitForSelector(`${EDITOR} [data-convert-offer="v2"][data-unmarked]`);
}

describe.if(enabled)("an unmarked PufferPanel 2.x template pasted into the editor", () => {
  test("the offer names the safe reading; converted, the JVM arguments split and no variable is the users' unless the file said so; saved as read", async () => {
    const page = await (await browser.newContext()).newPage();
    await logInAsAdmin(page, base);
    await pasteUnmarked(page);
    expect(await page.textContent(`${EDITOR} [data-convert-offer]`)).toContain("neither required nor editable by users");
    await page.click(`${EDITOR} [data-convert]`);
    await page.waitForSelector(`${EDITOR} [data-conversion-notes]`);
    const notes = await page.$$eval(`${EDITOR} [data-note]`, (els) => els.map((e) => e.getAttribute("data-note")));
    expect(notes).toContain("unmarkedV2");
    expect(notes).toContain("splitWords");
    expect(notes.filter((n) => n === "flagDefault").length).toBe(5);

    await page.click(`${EDITOR} [data-section="variables"]`);
    await page.click(`${EDITOR} [data-variable]:has-text("JVM Arguments") [data-edit]`);
    const check = (label: string) => page.isChecked(`${SUB} label.check-row:has-text("${label}") input`);
    expect(await check("Several arguments")).toBe(true);
    expect(await check("Users may edit")).toBe(false);
    expect(await check("Required")).toBe(false);
    await page.click(`${SUB} [data-apply]`);

    await page.fill(`${EDITOR} input[name="name"]`, "pasted-sponge");
    await page.click(`${EDITOR} [data-save-template]`);
    await page.waitForURL(`${base}/template/pasted-sponge`);
    const saved = await (await page.request.get(`${base}/api/templates/pasted-sponge`)).json();
    expect(saved.data.extraArgs).toMatchObject({ splitWords: true, userEdit: false, required: false });
    expect(saved.data.memory).toMatchObject({ value: 1024, userEdit: false, required: false });
    expect(saved.data.motd).toMatchObject({ userEdit: true, required: false });
  }, 60_000);

  test("screenshots: the offer and the variable dialog (laptop, phone, right-to-left)", async () => {
    for (const { suffix, viewport, locale } of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, viewport, locale, BROWSER_ADMIN);
      const page = await context.newPage();
      await pasteUnmarked(page);
      const offer = page.locator(`${EDITOR} [data-convert-offer]`);
      const box = (await offer.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 1);
      await shoot(page, `template-unmarked-offer-${suffix}`);
      await page.click(`${EDITOR} [data-convert]`);
      await page.waitForSelector(`${EDITOR} [data-conversion-notes]`);
      await page.click(`${EDITOR} [data-section="variables"]`);
      await page.click(`${EDITOR} [data-variable] [data-edit] >> nth=1`);
      await page.waitForSelector(`${SUB} [role="dialog"]`);
      await shoot(page, `template-split-words-${suffix}`);
      await context.close();
    }
  }, 120_000);
});
