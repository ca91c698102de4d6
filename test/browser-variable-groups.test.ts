// The Add server form's variable groups in Chromium (PufferPanel v3's `groups` with `if`): a
// group shows while its condition holds for the values in the form, live as they change, from
// the first paint; a hidden group's required field does not block the form; what was typed into
// a group later hidden is sent, as PufferPanel's form sends it. Without script every group shows.
// At 1366 and 390 px.
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { logInAsAdmin, browserPanelForFile } from "./helpers/browser-panel";
import { sidewaysOverflow } from "./helpers/browser";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The official minecraft template's groups in small (General; Forge and Paper by modlauncher). */
const template = {
  display: "Grouped Minecraft",
  run: { command: "sh -c 'echo ${modlauncher}; while read l; do [ \"$l\" = stop ] && exit 0; done'", stop: "stop" },
  environment: { type: "standard" },
  data: {
    eula: { type: "boolean", value: false, display: "EULA" },
    memory: { type: "integer", value: 1024, display: "Memory (MB)" },
    modlauncher: { type: "option", value: "", required: false, display: "Mod launcher", options: [{ value: "", display: "Vanilla" }, { value: "forge", display: "Forge" }, { value: "paper", display: "Paper" }] },
    forgebuild: { type: "string", value: "", required: true, display: "Forge build" },
    paperbuild: { type: "string", value: "478", required: true, display: "Paper build" },
    big: { type: "string", value: "", required: false, display: "Big server option" },
    motd: { type: "string", value: "hello", display: "Message of the day" },
  },
  groups: [
    { display: "General", description: "Settings for every server", variables: ["eula", "memory", "modlauncher"], order: 1 },
    { if: "modlauncher == 'forge'", display: "Forge", description: "Settings if using MinecraftForge", variables: ["forgebuild"], order: 2 },
    { if: "modlauncher == 'paper'", display: "Paper", variables: ["paperbuild"], order: 3 },
    { if: "memory >= 4096 && eula", display: "Big servers", variables: ["big"], order: 4 },
  ],
};

// A group's name is a shown label (a span in the legend), so the legend is matched by its whole text.
const visible = (page: Page, legend: string) => page.locator("fieldset.variable-group", { has: page.locator("legend", { hasText: new RegExp(`^${legend}$`) }) }).isVisible();
const shown = async (page: Page) => {
  const out: string[] = [];
  for (const legend of ["General", "Forge", "Paper", "Big servers", "Other settings"]) if (await visible(page, legend)) out.push(legend);
  return out;
};

describe.if(enabled)("variable groups on the Add server form", () => {
  test("groups follow their conditions live; a hidden required field does not block; what was typed is sent", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await logInAsAdmin(page, base);
    expect((await page.request.put(`${base}/api/templates/grouped`, { data: template })).status()).toBe(200);

    await page.goto(`${base}/addserver?template=grouped`);
    // Hidden from the first paint (the server's reading, by CSS), before the island has loaded.
    expect(await shown(page)).toEqual(["General", "Other settings"]);
    await page.waitForSelector('[data-island="VariableGroups"][data-hydrated="done"]');

    await page.selectOption('select[name="var.modlauncher"]', "forge");
    await page.waitForFunction(() => document.querySelectorAll("fieldset.variable-group:not([data-group-hidden])").length === 3);
    expect(await shown(page)).toEqual(["General", "Forge", "Other settings"]);
    expect(await page.getAttribute('input[name="var.forgebuild"]', "required")).not.toBeNull();
    await page.fill('input[name="var.forgebuild"]', "47.2.0");

    // Two values at once: an integer compared as a number and a ticked box.
    await page.fill('input[name="var.memory"]', "8192");
    await page.check('input[type=checkbox][name="var.eula"]');
    await page.waitForFunction(() => [...document.querySelectorAll("fieldset.variable-group:not([data-group-hidden]) legend")].some((l) => l.textContent === "Big servers"));
    await page.uncheck('input[type=checkbox][name="var.eula"]');
    await page.waitForFunction(() => ![...document.querySelectorAll("fieldset.variable-group:not([data-group-hidden]) legend")].some((l) => l.textContent === "Big servers"));

    await page.selectOption('select[name="var.modlauncher"]', "paper");
    await page.waitForFunction(() => [...document.querySelectorAll("fieldset.variable-group:not([data-group-hidden]) legend")].map((l) => l.textContent).join() === "General,Paper,Other settings");
    // Forge's field is hidden now: no longer required, its value still there.
    expect(await page.getAttribute('input[name="var.forgebuild"]', "required")).toBeNull();
    await page.screenshot({ path: "/tmp/kiln-variable-groups-1366.png", fullPage: true });

    await page.fill('form[data-testid="create-server"] input[name=name]', "Grouped");
    await page.click('form[data-testid="create-server"] button[type=submit]');
    await page.waitForURL(/\/server\/[0-9a-f]{8}$/);
    const id = page.url().split("/").pop()!;
    const definition = await (await page.request.get(`${base}/proxy/daemon/server/${id}`)).json();
    expect([definition.data.modlauncher.value, definition.data.paperbuild.value, definition.data.forgebuild.value, definition.data.memory.value]).toEqual(["paper", "478", "47.2.0", 8192]);
    await context.close();
  }, 90_000);

  test("a hidden required field left empty does not block the form (390 px)", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await logInAsAdmin(page, base);
    await page.goto(`${base}/addserver?template=grouped`);
    await page.waitForSelector('[data-island="VariableGroups"][data-hydrated="done"]');
    expect(await shown(page)).toEqual(["General", "Other settings"]);
    expect(await sidewaysOverflow(page)).toEqual([]);
    await page.screenshot({ path: "/tmp/kiln-variable-groups-390.png", fullPage: true });
    await page.fill('form[data-testid="create-server"] input[name=name]', "Vanilla grouped");
    await page.click('form[data-testid="create-server"] button[type=submit]');
    await page.waitForURL(/\/server\/[0-9a-f]{8}$/);
    await context.close();
  }, 60_000);

  test("without script every group shows, so every field can be filled", async () => {
    const admin = await browser.newContext({ viewport: DESKTOP });
    const login = await admin.newPage();
    await logInAsAdmin(login, base);
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false, storageState: await admin.storageState() });
    const page = await context.newPage();
    await page.goto(`${base}/addserver?template=grouped`);
    expect(await shown(page)).toEqual(["General", "Forge", "Paper", "Big servers", "Other settings"]);
    await page.screenshot({ path: "/tmp/kiln-variable-groups-noscript.png", fullPage: true });
    await context.close();
    await admin.close();
  }, 60_000);
});
