// The template editor's Add screen in Chromium: a file opened with "Open file…" proposes the id
// (an egg's as repositories name eggs, a PufferPanel template's by its file name) unless one was
// typed, and a template made in the editor is stored with the source Kiln, also when its fields
// read like PufferPanel v3's (groups, a network console), while one converted there keeps the
// source of what it was converted from.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { logInAsAdmin, browserPanelForFile } from "./helpers/browser-panel";
import { detectTemplateFormat } from "../core/definition/import";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const EDITOR = '[data-island="TemplateEditor"]';
const EGG = readFileSync(join(import.meta.dir, "fixtures/kiln-eggs/ptdl-v2.json"));

/** Kiln's own template with a group and a network console: by its fields it reads as PufferPanel v3. */
const KILN_WITH_GROUPS = {
  display: "Grouped echo",
  type: "other",
  install: [],
  run: { command: "sh -c 'read l'", stop: "stop", stdin: { type: "stdin" } },
  data: { greeting: { display: "Greeting", desc: "", type: "string", value: "hi", required: true, userEdit: true } },
  groups: [{ display: "General", description: "", variables: ["greeting"], order: 0 }],
  environment: { type: "standard" },
  supportedEnvironments: [{ type: "standard" }],
};

async function addPage(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await logInAsAdmin(page, base);
  await page.goto(`${base}/addtemplate`);
  await page.waitForSelector(`${EDITOR}[data-hydrated="done"] [data-template-editor]`);
  return page;
}

const open = (page: Page, name: string, buffer: Buffer) => page.setInputFiles(`${EDITOR} input[type="file"]`, { name, mimeType: "application/json", buffer });

describe.if(enabled)("Add template", () => {
  test("an egg opened from a file proposes its id; a PufferPanel file its name; a typed id stays", async () => {
    let page = await addPage();
    await open(page, "egg-block-game.json", EGG);
    await page.waitForSelector(`${EDITOR} [data-convert-offer="egg"]`);
    expect(await page.inputValue(`${EDITOR} input[name="name"]`)).toBe("block-game");

    await page.context().close();
    page = await addPage();
    await open(page, "Ark+Docker.json", Buffer.from(JSON.stringify({ pufferd: { display: "ARK", run: { program: "x", arguments: [] } } })));
    // The file is read asynchronously: wait for the editor to take it in before reading the id.
    await page.waitForFunction((selector) => document.querySelector<HTMLInputElement>(selector)?.value !== "", `${EDITOR} input[name="name"]`, { timeout: 10_000 }).catch(() => {});
    expect(await page.inputValue(`${EDITOR} input[name="name"]`)).toBe("arkplusdocker");

    await page.context().close();
    page = await addPage();
    await page.fill(`${EDITOR} input[name="name"]`, "my-own-id");
    await open(page, "egg-block-game.json", EGG);
    await page.waitForSelector(`${EDITOR} [data-convert-offer="egg"]`);
    expect(await page.inputValue(`${EDITOR} input[name="name"]`)).toBe("my-own-id");
    await page.context().close();
  }, 90_000);

  test("made in the editor it is stored as Kiln's, though its fields read like v3; converted from an egg it is an egg", async () => {
    // The precondition of the test: the panel, guessing by its fields, would call this PufferPanel's.
    expect(detectTemplateFormat(KILN_WITH_GROUPS)).toBe("v3");
    let page = await addPage();
    await page.fill(`${EDITOR} input[name="name"]`, "grouped-echo");
    await page.click(`${EDITOR} [data-value="json"]`);
    await page.fill(`${EDITOR} textarea.defedit-json`, JSON.stringify(KILN_WITH_GROUPS, null, 2));
    await page.click(`${EDITOR} [data-save-template]`);
    await page.waitForURL(`${base}/template/grouped-echo`);
    expect((await (await page.request.get(`${base}/api/templates/grouped-echo`)).json()).source).toBe("kiln");
    await page.goto(`${base}/template`);
    expect(await page.textContent('[data-template="grouped-echo"] [data-source]')).toBe("Kiln");

    await page.context().close();
    page = await addPage();
    await open(page, "egg-block-game.json", EGG);
    await page.click(`${EDITOR} [data-convert]`);
    await page.click(`${EDITOR} [data-save-template]`);
    await page.waitForURL(`${base}/template/block-game`);
    expect((await (await page.request.get(`${base}/api/templates/block-game`)).json()).source).toBe("egg");
    await page.context().close();
  }, 90_000);
});
