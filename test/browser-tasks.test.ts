// The tasks tab in a real browser against a real panel and its local node: create a weekly task
// through the editor (Add, name, the Weekly tab, days and time, a console step, Save), see its
// schedule in words in English, then in German after switching the language, run it now, and find
// its lines on the console tab. The editor itself: switching tabs keeps the
// time, Weekly's suggested Sunday gives way to the days picked, the schedule in words live in the
// page's language, "Cron expression" once, and a new step a console command, for a user who is no
// admin too (offered only what they may use).
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { logInAsAdmin, browserPanelForFile } from "./helpers/browser-panel";
import { echoTemplate } from "./helpers/node";
import de from "../locales/de.json";

/** A German message with its values, written out here rather than through Kiln's translator. */
const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

/** A running echo server (it answers console input with "got …"), made through the API. */
async function runningServer(page: Page, name: string): Promise<string> {
  expect((await page.request.put(`${base}/api/templates/echo`, { data: echoTemplate() })).status()).toBe(200);
  const nodes = await (await page.request.get(`${base}/api/nodes`)).json();
  const created = await page.request.post(`${base}/api/servers`, { data: { name, node: nodes[0].id, template: "echo", environment: { type: "standard" } } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  expect((await page.request.post(`${base}/proxy/daemon/server/${id}/start?wait=true`)).status()).toBeLessThan(300);
  return id;
}

/** Both editors of the dialog have hydrated (the schedule editor waits for an idle moment). */
const editorsReady = (page: Page, dialog: string) =>
  Promise.all(["TaskSchedule", "TaskSteps"].map((name) => page.waitForSelector(`${dialog} [data-island="${name}"][data-hydrated="done"]`, { state: "attached" })));

const description = (page: Page, name: string) => page.locator(`[data-testid="task"]:has(.task-name:text-is("${name}")) [data-testid="task-description"]`).textContent();

describe.if(enabled)("tasks in a browser", () => {
  test("create a weekly task in the editor, read its schedule in English and German, run it, see it on the console", async () => {
    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    await logInAsAdmin(page, base);
    const id = await runningServer(page, "Tasks Browser");
    await page.goto(`${base}/server/${id}?tab=tasks`);
    expect(await page.textContent('[data-testid="tasks-empty"]')).toBe("There are no tasks yet");

    const dialog = '[data-testid="task-new"]';
    await editorsReady(page, dialog);
    await page.click(`${dialog} > summary`);
    await page.fill(`${dialog} input[name="name"]`, "Weekly restart");
    const words = () => page.textContent(`${dialog} [data-testid="task-words"]`);
    // The default schedule, in words from the server before anything loads.
    expect(await words()).toBe("At 00:00");
    // The time is the time in every tab: 00:30 stays 00:30 through Hourly (whose "every n hours" is its own).
    await page.selectOption(`${dialog} select[aria-label="Minute"]`, "30");
    await page.click(`${dialog} [role="tab"][data-mode="hourly"]`);
    await page.fill(`${dialog} label.field:has(.field-label:text-is("Every (hours)")) input`, "3");
    await page.click(`${dialog} [role="tab"][data-mode="daily"]`);
    expect([await page.inputValue(`${dialog} select[aria-label="Hour"]`), await page.inputValue(`${dialog} select[aria-label="Minute"]`)]).toEqual(["0", "30"]);
    // Weekly suggests Sunday; the days picked replace it: Monday and Wednesday, at 18:30.
    await page.click(`${dialog} [role="tab"][data-mode="weekly"]`);
    expect(await page.getAttribute(`${dialog} [data-weekday="0"]`, "aria-pressed")).toBe("true");
    for (const day of [1, 3]) await page.click(`${dialog} [data-weekday="${day}"]`);
    expect(await page.getAttribute(`${dialog} [data-weekday="0"]`, "aria-pressed")).toBe("false");
    await page.selectOption(`${dialog} select[aria-label="Hour"]`, "18");
    expect(await page.textContent(`${dialog} [data-testid="task-cron"]`)).toBe("30 18 ? * 1,3");
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === "At 18:30, only on Monday and Wednesday", `${dialog} [data-testid="task-words"]`);
    // In Advanced the field is the expression: not repeated under it.
    await page.click(`${dialog} [role="tab"][data-mode="advanced"]`);
    expect(await page.locator(`${dialog} :text-is("Cron expression")`).count()).toBe(1);
    await page.click(`${dialog} [role="tab"][data-mode="weekly"]`);
    expect(await page.textContent(`${dialog} [data-testid="task-cron"]`)).toBe("30 18 ? * 1,3");

    // One step: a new one is a console command, in the step editor's own dialog.
    await page.click(`${dialog} .defedit-add:has-text("Add step")`);
    const step = page.locator(".defedit-sub");
    expect(await step.locator('.field:has(.field-label:text-is("Step type")) select').inputValue()).toBe("console");
    await step.locator('.field:has(.field-label:text-is("Command")) input').fill("hello from a task");
    await step.locator("[data-apply]").click();
    await step.waitFor({ state: "detached" });
    await page.click(`${dialog} .dialog-actions button[type="submit"]`);

    await page.waitForURL(`${base}/server/${id}?tab=tasks`);
    await page.waitForFunction(() => [...document.querySelectorAll(".toast")].some((t) => t.textContent === "Task saved"));
    expect(await description(page, "Weekly restart")).toBe("At 18:30, only on Monday and Wednesday");

    // The language picker: the same list, described in German.
    await page.click(".lang-menu summary");
    await page.click('.lang-btn[value="de_DE"]');
    await page.waitForFunction(() => document.documentElement.lang === "de-DE");
    // The picker goes back to the page's path, which is the console tab: return to the tasks.
    await page.goto(`${base}/server/${id}?tab=tasks`);
    expect(await description(page, "Weekly restart")).toBe("Um 18:30, nur jeden Montag und Mittwoch");
    expect(await page.textContent(`${dialog} > summary`)).toContain("Hinzufügen");
    // The edit dialog's words are German too, from the server and live once changed.
    const edit = '[data-testid="task-edit"]';
    await editorsReady(page, edit);
    await page.click(`${edit} > summary`);
    expect(await page.textContent(`${edit} [data-testid="task-words"]`)).toBe("Um 18:30, nur jeden Montag und Mittwoch");
    await page.click(`${edit} [data-weekday="5"]`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === "Um 18:30, nur jeden Montag, Mittwoch, und Freitag", `${edit} [data-testid="task-words"]`);
    await page.click(`${edit} .dialog-actions button:not([type="submit"])`);

    // Run now: the toast points to the console, where the run's lines are.
    await page.click('[data-testid="task-run"]');
    await page.waitForFunction((text) => [...document.querySelectorAll(".toast")].some((t) => t.textContent === text), de["tasks.started"]);
    // The node's own lines read in German too (it sends message keys; the stored console is the same for everyone).
    const line = (text: string) => fill(de["daemon.task.line"]!, { task: "Weekly restart", line: text });
    await page.click('.server-tabs a[data-hotkey="t c"]');
    await page.waitForFunction((text) => document.querySelector(".server-console-log")?.textContent?.includes(text), line(de["daemon.task.finished"]!), { timeout: 15_000 });
    const log = await page.textContent(".server-console-log");
    const stepLine = fill(de["daemon.step.running"]!, { label: fill(de["daemon.step.label"]!, { number: "1", total: "1" }), type: fill(de["daemon.task.console"]!, { command: "hello from a task" }) });
    expect(log).toContain(line(stepLine));
    expect(log).not.toContain('task "Weekly restart"');
    expect(log).toContain("got hello from a task");
    await context.close();
  }, 90_000);

  test("a user who is no admin is offered only the operations they may use, a console command first", async () => {
    const admin = await browser.newContext({ locale: "en-US" });
    const adminPage = await admin.newPage();
    await logInAsAdmin(adminPage, base);
    const id = await runningServer(adminPage, "Tasks Operator");
    const email = `operator${Date.now()}@example.com`;
    expect((await admin.request.post(`${base}/api/users`, { data: { email, username: `operator${Date.now()}`, password: "operatorpassword" } })).status()).toBeLessThan(300);
    const flags = { editServerData: true, sendServerConsole: true, viewServerConsole: true };
    expect((await admin.request.put(`${base}/api/servers/${id}/user/${encodeURIComponent(email)}`, { data: { email, ...flags } })).status()).toBeLessThan(300);
    await admin.close();

    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    await page.goto(`${base}/auth/login`);
    await page.fill("input[name=email]", email);
    await page.fill("input[name=password]", "operatorpassword");
    await page.click("main form button[type=submit]");
    await page.waitForURL(`${base}/server`);
    await page.goto(`${base}/server/${id}?tab=tasks`);
    const dialog = '[data-testid="task-new"]';
    await editorsReady(page, dialog);
    await page.click(`${dialog} > summary`);
    await page.click(`${dialog} .defedit-add:has-text("Add step")`);
    const select = page.locator('.defedit-sub .field:has(.field-label:text-is("Step type")) select');
    expect(await select.inputValue()).toBe("console");
    // Console, a pause, waiting for a console line and a state check need nothing more; the command step and the power actions are not offered.
    expect(await select.locator("option").evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value))).toEqual(["console", "sleep", "waitForConsole", "ifState"]);
    await context.close();
  }, 60_000);
});
