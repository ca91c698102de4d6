// The template editor in a real browser against a real panel and its local node: add a template
// through the editor (a variable with a space in its name is refused with the toast; steps added,
// edited and a new one cancelled; the command as program and arguments; editor → JSON → editor
// without loss), save it, make a server from it on the Add server screen and see it run; a
// version-1 template pasted as JSON, or opened from a file, offered for conversion; Add entry
// putting the caret in the new entry, blank arguments left out; leaving with unsaved changes asked.
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { logInAsAdmin, browserPanelForFile } from "./helpers/browser-panel";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

/** A PufferPanel version-1 template, as old repositories hold them. */
const V1_TEMPLATE = {
  pufferd: {
    type: "java",
    display: "Old Vanilla - Minecraft",
    install: { commands: [{ type: "mojangdl", version: "${version}", target: "server.jar" }] },
    run: { stop: "stop", pre: [], post: [], program: "java", arguments: ["-Xmx${memory}M", "-jar", "server.jar"] },
    environment: { type: "tty" },
    data: { memory: { value: "1024", required: true, desc: "Heap", display: "Memory (MB)", internal: false, type: "integer" }, version: { value: "1.20.4", required: true, desc: "Version", display: "Version", internal: false } },
  },
};

const EDITOR = '[data-island="TemplateEditor"]';
const SUB = ".defedit-sub";

async function openAddTemplate(page: Page): Promise<void> {
  await page.goto(`${base}/addtemplate`);
  await page.waitForSelector(`${EDITOR}[data-hydrated="done"] [data-template-editor]`);
}

const section = (page: Page, name: string) => page.click(`${EDITOR} [data-section="${name}"]`);
const field = (scope: string, label: string) => `${scope} label.field:has(> .field-label:text-is("${label}")) :is(input, textarea)`;
const toastTexts = (page: Page) => page.$$eval(".toast", (els) => els.map((e) => e.textContent ?? ""));
const jsonText = (page: Page) => page.inputValue(`${EDITOR} textarea.defedit-json`);

/** Waits until `check` holds (what it reads comes through Playwright selectors, which waitForFunction cannot take). */
async function until(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(50);
  }
}

describe.if(enabled)("the template editor in a browser", () => {
  test("add a template in the editor, keep it across JSON and back, save it, and run a server made from it", async () => {
    const page = await (await browser.newContext()).newPage();
    await logInAsAdmin(page, base);
    await openAddTemplate(page);
    await page.fill(`${EDITOR} input[name="name"]`, "browser-echo");
    await page.fill(field(EDITOR, "Display name"), "Browser echo");
    await page.fill(field(EDITOR, "Type"), "testing");

    // A variable named with a space is refused with a toast, and nothing joins the list.
    await section(page, "variables");
    await page.click(`${EDITOR} .defedit-add:has-text("Add variable")`);
    await page.fill(field(SUB, "Name"), "my greeting");
    await page.click(`${SUB} [data-apply]`);
    await page.waitForFunction(() => [...document.querySelectorAll(".toast")].some((t) => t.textContent === "Variable name cannot be blank or contain spaces"));
    expect(await page.isVisible(`${SUB} [role="dialog"]`)).toBe(true);
    await page.fill(field(SUB, "Name"), "greeting");
    await page.fill(field(SUB, "Display name"), "Greeting");
    await page.fill(field(SUB, "Value"), "world");
    await page.click(`${SUB} [data-apply]`);
    expect(await page.$$eval(`${EDITOR} [data-variable] strong`, (els) => els.map((e) => e.textContent))).toEqual(["Greeting"]);

    // Install steps: a new step is a command; applied it joins, edited it changes, a cancelled new one leaves nothing.
    await section(page, "install");
    await page.click(`${EDITOR} .defedit-add:has-text("Add step")`);
    expect(await page.inputValue(`${SUB} select`)).toBe("command");
    await page.click(`${SUB} .defedit-add:has-text("Add entry")`);
    await page.fill(`${SUB} input.defedit-mono >> nth=0`, "sh -c 'echo first > installed.txt'");
    await page.click(`${SUB} [data-apply]`);
    await page.click(`${EDITOR} [data-step-type="command"] [data-edit]`);
    // A script reads the variable from its environment (never spliced into the script).
    await page.fill(`${SUB} input.defedit-mono >> nth=0`, `sh -c 'echo installed "$greeting" > installed.txt'`);
    await page.click(`${SUB} [data-apply]`);
    await page.click(`${EDITOR} .defedit-add:has-text("Add step")`);
    await page.click(`${SUB} button:has-text("Cancel")`);
    expect(await page.locator(`${EDITOR} [data-step-type]`).count()).toBe(1);
    expect(await page.textContent(`${EDITOR} [data-step-type="command"] .defedit-summary`)).toContain('echo installed "$greeting"');

    // Run configuration: the program and its arguments, one of them with a variable and a space.
    await section(page, "run");
    await page.fill(field(EDITOR, "Command"), "sh");
    for (const arg of ["-c", 'cat installed.txt; echo "hello $1"; read line', "greeter", "${greeting}"]) {
      await page.click(`${EDITOR} .defedit-add:has-text("Add entry")`);
      await page.fill(`${EDITOR} fieldset:has(legend:text-is("Arguments")) input >> nth=-1`, arg);
    }
    expect(await page.textContent(`${EDITOR} [data-command-line]`)).toBe(`sh -c 'cat installed.txt; echo "hello $1"; read line' greeter "\${greeting}"`);

    // Editor → JSON → editor: nothing lost; an edit made in the JSON shows in the editor.
    await page.click(`${EDITOR} [data-value="json"]`);
    const json = JSON.parse(await jsonText(page));
    expect(json).toMatchObject({
      display: "Browser echo",
      type: "testing",
      data: { greeting: { display: "Greeting", value: "world", type: "string" } },
      install: [{ type: "command", commands: [`sh -c 'echo installed "$greeting" > installed.txt'`] }],
      run: { command: `sh -c 'cat installed.txt; echo "hello $1"; read line' greeter "\${greeting}"`, stop: "stop" },
      environment: { type: "standard" },
      supportedEnvironments: [{ type: "standard" }],
    });
    await page.fill(`${EDITOR} textarea.defedit-json`, JSON.stringify({ ...json, display: "Browser echo!" }, null, 2).replace('"type": "testing"', '"type": "testing",'));
    await page.click(`${EDITOR} [data-value="editor"]`);
    // A trailing comma is not JSON: the error says where, the text stays as typed, the mode stays JSON.
    await page.waitForSelector(`${EDITOR} [data-json-error]`);
    expect(await page.textContent(`${EDITOR} [data-json-error]`)).toMatch(/line \d+, column \d+/);
    expect(await jsonText(page)).toContain('"type": "testing",');
    expect(await toastTexts(page)).toContain("The JSON data is invalid");
    await page.fill(`${EDITOR} textarea.defedit-json`, JSON.stringify({ ...json, display: "Browser echo!" }, null, 2));
    await page.click(`${EDITOR} [data-value="editor"]`);
    await section(page, "general");
    expect(await page.inputValue(field(EDITOR, "Display name"))).toBe("Browser echo!");
    await section(page, "variables");
    expect(await page.locator(`${EDITOR} [data-variable]`).count()).toBe(1);
    await section(page, "install");
    expect(await page.locator(`${EDITOR} [data-step-type]`).count()).toBe(1);

    // Save: the template page of the new template.
    await page.click(`${EDITOR} [data-save-template]`);
    await page.waitForURL(`${base}/template/browser-echo`);
    const stored = await (await page.request.get(`${base}/api/templates/browser-echo`)).json();
    expect(stored).toMatchObject({ id: "browser-echo", display: "Browser echo!", run: { command: json.run.command } });

    // A server made from it on the Add server screen installs, starts and runs with its variable.
    await page.goto(`${base}/addserver`);
    await page.selectOption('form[data-testid="choose-template"] select[name=template]', "browser-echo");
    await page.click('form[data-testid="choose-template"] button[type=submit]');
    await page.fill('form[data-testid="create-server"] input[name=name]', "From Template");
    await page.fill('input[name="var.greeting"]', "kiln user");
    await page.click('form[data-testid="create-server"] button[type=submit]');
    await page.waitForURL(/\/server\/[0-9a-f]{8}$/);
    await page.waitForSelector('.server-status-dot[data-status="offline"]');
    await page.click('.server-controls button[data-action="start"]');
    await page.waitForFunction(() => document.querySelector(".server-console-log")?.textContent?.includes("hello kiln user"), null, { timeout: 20_000 });
    expect(await page.textContent(".server-console-log")).toContain("installed kiln user");
  }, 120_000);

  test("a version-1 template pasted as JSON is offered for conversion and converted into the editor", async () => {
    const page = await (await browser.newContext()).newPage();
    await logInAsAdmin(page, base);
    await openAddTemplate(page);
    await page.click(`${EDITOR} [data-value="json"]`);
    await page.fill(`${EDITOR} textarea.defedit-json`, JSON.stringify(V1_TEMPLATE));
    await page.click(`${EDITOR} [data-value="editor"]`);
    await page.waitForSelector(`${EDITOR} [data-convert-offer]`);
    await page.click(`${EDITOR} [data-convert]`);
    await page.waitForSelector(`${EDITOR} [data-section="environments"]`);
    expect(await page.inputValue(field(EDITOR, "Display name"))).toBe("Old Vanilla - Minecraft");
    await section(page, "run");
    expect(await page.textContent(`${EDITOR} [data-command-line]`)).toBe('java "-Xmx${memory}M" -jar server.jar');
    await section(page, "environments");
    expect(await page.$$eval(`${EDITOR} [data-environment]`, (els) => els.map((e) => e.getAttribute("data-environment")))).toEqual(["tty"]);
  }, 60_000);

  test("Open file… loads a file exactly as pasting does: a version-1 file is offered for conversion, a Kiln one fills the editor", async () => {
    const page = await (await browser.newContext()).newPage();
    await logInAsAdmin(page, base);
    await openAddTemplate(page);
    const open = (name: string, json: object) => page.setInputFiles(`${EDITOR} input[type="file"]`, { name, mimeType: "application/json", buffer: Buffer.from(JSON.stringify(json)) });

    await open("old-vanilla.json", V1_TEMPLATE);
    await page.waitForSelector(`${EDITOR} [data-convert-offer="v1"]`);
    await page.click(`${EDITOR} [data-convert]`);
    await page.waitForSelector(`${EDITOR} [data-section="environments"]`);
    expect(await page.inputValue(field(EDITOR, "Display name"))).toBe("Old Vanilla - Minecraft");

    // Opened while the editor shows another template: the file replaces it.
    await open("kiln.json", { display: "From a file", type: "testing", run: { command: "sh -c 'echo hi'" }, supportedEnvironments: [{ type: "standard" }] });
    await until(async () => (await page.inputValue(field(EDITOR, "Display name"))) === "From a file");
    expect(await page.isVisible(`${EDITOR} [data-convert-offer]`)).toBe(false);
    await section(page, "run");
    expect(await page.textContent(`${EDITOR} [data-command-line]`)).toBe("sh -c 'echo hi'");

    // A file that is not JSON: shown as it is in JSON mode, with where it breaks.
    await page.setInputFiles(`${EDITOR} input[type="file"]`, { name: "broken.json", mimeType: "application/json", buffer: Buffer.from('{"display": "x",}') });
    await page.waitForSelector(`${EDITOR} [data-json-error]`);
    expect(await jsonText(page)).toBe('{"display": "x",}');
  }, 60_000);

  test("Add entry puts the caret in the new entry, blank arguments are left out, and leaving unsaved changes asks first", async () => {
    const page = await (await browser.newContext()).newPage();
    await logInAsAdmin(page, base);
    await openAddTemplate(page);
    expect(await page.isVisible(`${EDITOR} [data-unsaved]`)).toBe(false);
    await section(page, "run");
    await page.fill(field(EDITOR, "Command"), "sh");
    const args = `${EDITOR} fieldset:has(legend:text-is("Arguments")) input`;
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
    // Typed straight after Add entry: the keys go to the new entry.
    await page.click(`${EDITOR} .defedit-add:has-text("Add entry")`);
    expect(await focused()).toBe("Arguments 1");
    await page.keyboard.type("-c");
    await page.click(`${EDITOR} .defedit-add:has-text("Add entry")`);
    expect(await focused()).toBe("Arguments 2");
    await page.click(`${EDITOR} .defedit-add:has-text("Add entry")`);
    await page.keyboard.type("echo hi");
    // The blank second entry stays on screen while it is edited, but is no argument.
    expect(await page.$$eval(args, (els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(["-c", "", "echo hi"]);
    expect(await page.textContent(`${EDITOR} [data-command-line]`)).toBe("sh -c 'echo hi'");
    await page.click(`${EDITOR} [data-value="json"]`);
    expect(JSON.parse(await jsonText(page)).run.command).toBe("sh -c 'echo hi'");
    await page.click(`${EDITOR} [data-value="editor"]`);

    // A link inside the panel asks in words; staying keeps everything.
    expect(await page.isVisible(`${EDITOR} [data-unsaved]`)).toBe(true);
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.click('a[href="/server"]');
    expect(asked).toEqual(["confirm: This template has unsaved changes. Leave the page and lose them?"]);
    expect(new URL(page.url()).pathname).toBe("/addtemplate");
    expect(await page.textContent(`${EDITOR} [data-command-line]`)).toBe("sh -c 'echo hi'");

    // Closing or reloading the tab: the browser's own prompt.
    const unload = new Promise<string>((resolve) => page.once("dialog", (dialog) => (resolve(dialog.type()), void dialog.accept())));
    await page.close({ runBeforeUnload: true });
    expect(await unload).toBe("beforeunload");
  }, 60_000);

  test("a saved template leaves without asking", async () => {
    const page = await (await browser.newContext()).newPage();
    await logInAsAdmin(page, base);
    await openAddTemplate(page);
    const asked: string[] = [];
    page.on("dialog", (dialog) => (asked.push(dialog.type()), void dialog.dismiss()));
    await page.fill(`${EDITOR} input[name="name"]`, "saved-then-left");
    await page.fill(field(EDITOR, "Display name"), "Saved then left");
    await page.click(`${EDITOR} [data-save-template]`);
    await page.waitForURL(`${base}/template/saved-then-left`);
    await page.waitForSelector(`${EDITOR}[data-hydrated="done"] [data-template-editor]`);
    await page.fill(field(EDITOR, "Display name"), "Edited and saved");
    await page.click(`${EDITOR} [data-save-template]`);
    await page.waitForFunction(() => [...document.querySelectorAll(".toast")].some((t) => t.textContent === "Template saved"));
    expect(await page.isVisible(`${EDITOR} [data-unsaved]`)).toBe(false);
    await page.click('a[href="/server"]');
    await page.waitForURL(`${base}/server`);
    expect(asked).toEqual([]);
  }, 60_000);

  test("the Add server page shows the template's readme as markdown, made into elements, with or without script", async () => {
    const setup = await (await browser.newContext()).newPage();
    await logInAsAdmin(setup, base);
    const readme = ["# Before you start", "", "Accept the **EULA** first, then:", "", "- open port `25565`", "- see [the guide](https://example.com/guide)", "", "<script>window.pwned = 1</script> [no](javascript:alert(1))"].join("\n");
    const template = { display: "With a readme", readme, run: { command: "sh" }, supportedEnvironments: [{ type: "standard" }] };
    expect((await setup.request.put(`${base}/api/templates/with-readme`, { data: template })).status()).toBe(200);
    const cookies = await setup.context().cookies();

    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ javaScriptEnabled });
      await context.addCookies(cookies);
      const page = await context.newPage();
      await page.goto(`${base}/addserver?template=with-readme`);
      const box = 'form[data-testid="create-server"] .template-readme';
      expect(await page.textContent(`${box} h3`)).toBe("Before you start");
      expect(await page.textContent(`${box} strong`)).toBe("EULA");
      expect(await page.$$eval(`${box} li`, (els) => els.map((e) => e.textContent))).toEqual(["open port 25565", "see the guide"]);
      expect(await page.getAttribute(`${box} a`, "href")).toBe("https://example.com/guide");
      // Markup in the readme is text: no element made from it, no script run, no javascript: link.
      expect(await page.locator(`${box} script, ${box} a[href^="javascript"]`).count()).toBe(0);
      expect(await page.textContent(box)).toContain("<script>window.pwned = 1</script>");
      if (javaScriptEnabled) expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      // Not the flattened raw text it was.
      expect(await page.textContent(box)).not.toContain("# Before");
      await context.close();
    }
  }, 60_000);
});
