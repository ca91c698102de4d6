// Triggers in the tasks tab in a real browser against a real panel and its local node: add a task
// in the editor with a console trigger (a regular expression) and a crash trigger, a cooldown, a
// condition and a waitForConsole step; see its triggers in words in the list; print the line on
// the server and find the task's run, with the captured name, on the console. Screenshots of the
// list and of the edit dialog at laptop and phone width are written for a person to look at
// (KILN_SHOTS).
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, createEchoServer } from "./helpers/browser-panel";
import { LAPTOP, PHONE, shoot, shotContext } from "./helpers/screenshots";

const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));

const editorsReady = (page: Page, dialog: string) =>
  Promise.all(["TaskSchedule", "TaskTriggers", "TaskSteps"].map((name) => page.waitForSelector(`${dialog} [data-island="${name}"][data-hydrated="done"]`, { state: "attached" })));

describe.if(enabled)("triggers in a browser", () => {
  test("add a triggered task in the editor, read its triggers in words, and see a line run it", async () => {
    const context = await shotContext(browser, base, LAPTOP, null, BROWSER_ADMIN);
    const page = await context.newPage();
    await page.goto(`${base}/server`);
    const id = await createEchoServer(page, base, "Triggers Browser");
    expect((await page.request.post(`${base}/proxy/daemon/server/${id}/start?wait=true`)).status()).toBeLessThan(300);
    await page.goto(`${base}/server/${id}?tab=tasks`);

    const dialog = '[data-testid="task-new"]';
    await editorsReady(page, dialog);
    await page.click(`${dialog} > summary`);
    await page.fill(`${dialog} input[name="name"]`, "Greeter");
    // Manual schedule: the triggers start it.
    await page.click(`${dialog} .task-sched-switch`);
    const triggers = page.locator(`${dialog} [data-testid="task-triggers-editor"]`);
    await triggers.locator('.task-trigger-add select').selectOption("console");
    await triggers.locator('.task-trigger-add button:has-text("Add trigger")').click();
    const first = triggers.locator(".task-trigger").nth(0);
    await first.locator('.field:has(.field-label:text-is("Text in the line")) input').fill("(\\w+) joined the game");
    await first.locator('.check-row:has-text("Regular expression") input').check();
    await triggers.locator(".task-trigger-add select").selectOption("crash");
    await triggers.locator('.task-trigger-add button:has-text("Add trigger")').click();
    expect(await triggers.locator(".task-trigger").count()).toBe(2);
    await page.fill(`${dialog} input[name="cooldownSeconds"]`, "5");
    await page.selectOption(`${dialog} select[name="conditionState"]`, "running");

    // Two steps: a console command with the captured name, then a wait for its answer.
    await page.click(`${dialog} .defedit-add:has-text("Add step")`);
    const step = page.locator(".defedit-sub");
    await step.locator('.field:has(.field-label:text-is("Command")) input').fill("say welcome ${trigger.1}");
    await step.locator("[data-apply]").click();
    await step.waitFor({ state: "detached" });
    await page.click(`${dialog} .defedit-add:has-text("Add step")`);
    await step.locator('.field:has(.field-label:text-is("Step type")) select').selectOption("waitForConsole");
    await step.locator('.field:has(.field-label:text-is("Text in the line")) input').fill("got say welcome");
    await step.locator("[data-apply]").click();
    await step.waitFor({ state: "detached" });
    await page.click(`${dialog} .dialog-actions button[type="submit"]`);

    await page.waitForURL(`${base}/server/${id}?tab=tasks`);
    await page.waitForFunction(() => [...document.querySelectorAll(".toast")].some((t) => t.textContent === "Task saved"));
    const words = page.locator('[data-testid="task"]:has(.task-name:text-is("Greeter")) [data-testid="task-triggers"]');
    expect(await words.textContent()).toBe("Runs when a console line matches (\\w+) joined the game or the server crashes");
    const stored = Object.values((await (await page.request.get(`${base}/proxy/daemon/server/${id}/tasks`)).json()).tasks) as Array<Record<string, unknown>>;
    expect(stored[0]).toMatchObject({
      cronSchedule: null,
      triggers: [{ type: "console", pattern: "(\\w+) joined the game", regex: true }, { type: "crash" }],
      cooldownSeconds: 5,
      conditions: { state: "running" },
      operations: [{ type: "console", command: "say welcome ${trigger.1}" }, { type: "waitForConsole", pattern: "got say welcome", regex: false, timeoutSeconds: 60 }],
    });

    // A scheduled task beside it, for the list's look.
    const more = { name: "Nightly restart", cronSchedule: "0 4 * * *", operations: [{ type: "restart" }], triggers: [{ type: "resource", metric: "memory", above: 3072, forSeconds: 300 }, { type: "state", state: "installed" }] };
    expect((await page.request.post(`${base}/proxy/daemon/server/${id}/tasks`, { data: more })).status()).toBe(201);

    // The line on the server runs it, and the name it captured reaches the command.
    expect((await page.request.post(`${base}/proxy/daemon/server/${id}/console`, { data: "alice joined the game", headers: { "content-type": "text/plain" } })).status()).toBe(204);
    await page.click('.server-tabs a[data-hotkey="t c"]');
    await page.waitForFunction(() => document.querySelector(".server-console-log")?.textContent?.includes('task "Greeter": finished'), undefined, { timeout: 15_000 });
    const log = (await page.textContent(".server-console-log"))!;
    expect(log).toContain('task "Greeter": started (triggered: a console line matched (\\w+) joined the game)');
    expect(log).toContain("got say welcome alice");

    // What a person looks at: the list, and the edit dialog with its triggers, at both widths.
    for (const [suffix, viewport] of [["1280", LAPTOP], ["390", PHONE]] as const) {
      const shots = suffix === "1280" ? context : await shotContext(browser, base, viewport, null, BROWSER_ADMIN);
      const shotPage = suffix === "1280" ? page : await shots.newPage();
      await shotPage.goto(`${base}/server/${id}?tab=tasks`);
      await shotPage.waitForSelector('[data-testid="task-triggers"]');
      await shoot(shotPage, `task-triggers-list-${suffix}`);
      const edit = `[data-testid="task"]:has(.task-name:text-is("Greeter")) [data-testid="task-edit"]`;
      await editorsReady(shotPage, edit);
      await shotPage.click(`${edit} > summary`);
      await shotPage.locator(`${edit} [data-testid="task-triggers-editor"]`).waitFor();
      expect(await shotPage.locator(`${edit} .task-trigger`).count()).toBe(2);
      // Tall enough for the whole dialog, which otherwise scrolls inside the viewport.
      await shotPage.setViewportSize({ width: viewport.width, height: 2600 });
      await shotPage.waitForTimeout(300);
      await shoot(shotPage.locator(`${edit} .overlay`), `task-triggers-edit-${suffix}`);
      await shotPage.setViewportSize(viewport);
      if (shotPage !== page) await shots.close();
    }
    await context.close();
  }, 120_000);
});
