// The tasks tab as the server renders it, without script: the tab
// for editServerData only; the list with each schedule in words (in the page's language) or
// 'Manual run only'; the New Task and Edit Task dialogs; the script-free form creating, changing,
// running and deleting a task against a real node; and a refused save shown again in its own
// dialog, open, with what was typed and the error.
import { describe, expect, test } from "bun:test";
import { flashOf } from "./helpers/app";
import { eventually } from "./helpers/node";
import { panelPerTest, jsonInit, formInit, type PanelWithNode } from "./helpers/panel-node";

let ctx: PanelWithNode;
panelPerTest((fresh) => (ctx = fresh));

const page = (path: string, token: string, headers?: Record<string, string>) => ctx.page(path, token, headers);
const post = (path: string, token: string, fields: Record<string, string>) => ctx.panel.request(path, { token, ...formInit(fields) });

/** The markup of the <details> dialog with `testId`; for per-task dialogs, the one in the row of `taskId`. */
function dialog(html: string, testId: string, taskId?: string): string {
  const from = taskId === undefined ? 0 : html.indexOf(`data-task-id="${taskId}"`);
  expect(from).toBeGreaterThanOrEqual(0);
  const start = html.indexOf(`data-testid="${testId}"`, from);
  expect(start).toBeGreaterThan(0);
  const open = html.lastIndexOf("<details", start);
  return html.slice(open, html.indexOf("</details>", start));
}
const isOpen = (details: string) => /^<details[^>]* open=""/.test(details);

/** The server's tasks as the node keeps them. */
const tasksOf = async (id: string) => ((await (await ctx.panel.request(`/proxy/daemon/server/${id}/tasks`, { token: ctx.admin.token })).json()) as { tasks: Record<string, { name: string; cronSchedule: string | null; operations: Record<string, unknown>[] }> }).tasks;

async function createTask(id: string, task: { name: string; cronSchedule: string | null; operations?: object[] }): Promise<string> {
  const res = await ctx.panel.request(`/proxy/daemon/server/${id}/tasks`, { token: ctx.admin.token, ...jsonInit("POST", { operations: [], ...task }) });
  expect(res.status).toBeLessThan(300);
  return (await res.json()).id;
}

const userWith = (id: string, flags: Record<string, boolean>) => ctx.userWith(id, flags);

describe("tasks tab without script", () => {
  test("the tab needs editServerData; without it there is no tab and no form to post", async () => {
    const id = await ctx.createServer("Tasks Perms");
    const admin = await page(`/server/${id}`, ctx.admin.token);
    expect(admin.html).toContain('data-hotkey="t t"');
    // The tabs' order: console, stats, files, tasks, settings, users, admin.
    const order = ["t c", "t i", "t f", "t t", "t s", "t u", "t a"].map((k) => admin.html.indexOf(`data-hotkey="${k}"`));
    expect(order).toEqual([...order].sort((a, b) => a - b));

    const viewer = await userWith(id, { viewServerConsole: true, sendServerConsole: true });
    const theirs = await page(`/server/${id}?tab=tasks`, viewer.token);
    expect(theirs.html).not.toContain('data-hotkey="t t"');
    expect(theirs.html).not.toContain('data-testid="tasks"');
    expect(theirs.html).toContain('data-island="ServerConsole"');
    const refused = await post(`/server/${id}/tasks`, viewer.token, { name: "Sneaky", operations: "[]" });
    expect(refused.status).toBe(403);
    expect(await tasksOf(id)).toEqual({});
  });

  test("an empty list says so; the New Task dialog is closed, scheduled by default, with both editors", async () => {
    const id = await ctx.createServer("Tasks Empty");
    const { status, html } = await page(`/server/${id}?tab=tasks`, ctx.admin.token);
    expect(status).toBe(200);
    expect(html).toContain('data-testid="tasks-empty"');
    expect(html).toContain("There are no tasks yet");
    const add = dialog(html, "task-new");
    expect(isOpen(add)).toBe(false);
    expect(add).toContain("New Task");
    expect(add).toContain(`action="/server/${id}/tasks"`);
    expect(add).toContain('data-island="TaskSchedule"');
    expect(add).toContain('data-island="TaskSteps"');
    // Before script: a ticked "scheduled" box and the default expression.
    expect(add).toMatch(/<input type="checkbox" name="scheduled" checked=""/);
    expect(add).toContain('name="cronSchedule" value="0 0 */1 * *"');
    expect(add).toContain('name="operations"');
  });

  test("the list: names, schedules in words (English, then German), manual only, and the row's dialogs", async () => {
    const id = await ctx.createServer("Tasks List");
    const weekly = await createTask(id, { name: "Weekly restart", cronSchedule: "30 18 ? * 1,3", operations: [{ type: "restart" }] });
    const manual = await createTask(id, { name: "Backup by hand", cronSchedule: null });
    const daily = await createTask(id, { name: "Nightly", cronSchedule: "@daily" });

    const { html } = await page(`/server/${id}?tab=tasks`, ctx.admin.token);
    expect(html).not.toContain('data-testid="tasks-empty"');
    expect(html.match(/data-testid="task"/g)?.length).toBe(3);
    expect(html).toContain("Weekly restart");
    expect(html).toContain("At 18:30, only on Monday and Wednesday");
    expect(html).toContain("Manual run only");
    expect(html).toContain("At 00:00");

    // Each row: its Edit Task dialog (closed) posting to the task, Run now, and Delete behind a confirmation.
    const edit = dialog(html, "task-edit", weekly);
    expect(isOpen(edit)).toBe(false);
    expect(edit).toContain("Edit Task");
    expect(edit).toContain(`action="/server/${id}/tasks/${weekly}"`);
    expect(edit).toContain('value="Weekly restart"');
    expect(edit).toContain('value="30 18 ? * 1,3"');
    expect(html).toContain(`action="/server/${id}/tasks/${weekly}/run"`);
    const remove = dialog(html, "task-delete", weekly);
    expect(remove).toContain(`action="/server/${id}/tasks/${weekly}/delete"`);
    expect(remove).toContain("Do you really want to delete the task Weekly restart?");
    // A manual-only task shows unscheduled (the box unticked) with the default in the field.
    const manualEdit = dialog(html, "task-edit", manual);
    expect(manualEdit).toMatch(/<input type="checkbox" name="scheduled"\/>/);
    expect(manualEdit).toContain('value="0 0 */1 * *"');
    expect(dialog(html, "task-edit", daily)).toContain('value="@daily"');

    const german = await page(`/server/${id}?tab=tasks`, ctx.admin.token, { cookie: `kiln=${ctx.admin.token}; kiln_locale=de_DE` });
    expect(german.html).toContain("Um 18:30, nur jeden Montag und Mittwoch");
    expect(german.html).toContain("Nur manuelle Ausführung");
    expect(german.html).toContain("Neue Aufgabe");
  });

  test("the script-free form creates, changes, runs and deletes a task", async () => {
    const id = await ctx.createServer("Tasks Form");
    const operations = JSON.stringify([{ type: "writefile", target: "from-task.txt", text: "written by a task" }]);
    const created = await post(`/server/${id}/tasks`, ctx.admin.token, { name: "  Write a file  ", scheduled: "on", cronSchedule: "30 18 ? * 1,3", operations });
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toBe(`/server/${id}?tab=tasks`);
    expect(flashOf(created)).toBe("tasks.saved");
    let tasks = await tasksOf(id);
    const [taskId] = Object.keys(tasks);
    expect(tasks[taskId!]).toMatchObject({ name: "Write a file", cronSchedule: "30 18 ? * 1,3", operations: [{ type: "writefile", target: "from-task.txt" }] });
    const listed = await page(`/server/${id}?tab=tasks`, ctx.admin.token);
    expect(listed.html).toContain("Write a file");
    expect(listed.html).toContain("At 18:30, only on Monday and Wednesday");

    // Unticked "scheduled" saves manual only, whatever the text field holds.
    const changed = await post(`/server/${id}/tasks/${taskId}`, ctx.admin.token, { name: "Write it by hand", cronSchedule: "0 4 * * *", operations });
    expect(changed.status).toBe(303);
    tasks = await tasksOf(id);
    expect(tasks[taskId!]).toMatchObject({ name: "Write it by hand", cronSchedule: null });
    expect((await page(`/server/${id}?tab=tasks`, ctx.admin.token)).html).toContain("Manual run only");

    // Run now: the step runs on the node and its lines reach the console with the daemon marker.
    const ran = await post(`/server/${id}/tasks/${taskId}/run`, ctx.admin.token, {});
    expect(ran.status).toBe(303);
    expect(flashOf(ran)).toBe("tasks.started");
    const consoleText = async () => ((await ctx.node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
    await eventually(async () => (await consoleText()).includes('task "Write it by hand": finished'), 10_000, "the task's console line");
    expect(await consoleText()).toContain('[kiln] task "Write it by hand": step 1/1: writefile');
    const file = await ctx.panel.request(`/proxy/daemon/server/${id}/file/from-task.txt`, { token: ctx.admin.token });
    expect(await file.text()).toBe("written by a task");

    const deleted = await post(`/server/${id}/tasks/${taskId}/delete`, ctx.admin.token, {});
    expect(deleted.status).toBe(303);
    expect(flashOf(deleted)).toBe("tasks.deleted");
    expect(await tasksOf(id)).toEqual({});
  });

  test("a blank name or a bad schedule shows the New Task dialog again, open, with the values and the error", async () => {
    const id = await ctx.createServer("Tasks Refused");
    const operations = JSON.stringify([{ type: "sleep", seconds: 5 }]);
    const blank = await post(`/server/${id}/tasks`, ctx.admin.token, { name: "   ", scheduled: "on", cronSchedule: "15 3 * * ?", operations });
    expect(blank.status).toBe(400);
    let add = dialog(await blank.text(), "task-new");
    expect(isOpen(add)).toBe(true);
    expect(add).toContain('role="alert"');
    expect(add).toContain("name is required");
    expect(add).toContain('value="15 3 * * ?"');
    expect(add).toContain("&quot;seconds&quot;: 5");

    const bad = await post(`/server/${id}/tasks`, ctx.admin.token, { name: "Too late", scheduled: "on", cronSchedule: "61 25 * * *", operations });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    add = dialog(html, "task-new");
    expect(isOpen(add)).toBe(true);
    expect(add).toContain("Task Schedule Invalid");
    expect(add).toContain('value="Too late"');
    expect(add).toContain('value="61 25 * * *"');
    // The field itself is marked, and nothing above the tabs repeats the error.
    expect(add).toContain('aria-invalid="true"');
    expect(html.indexOf("Task Schedule Invalid")).toBeGreaterThan(html.indexOf('data-testid="tasks"'));

    // Submitted unscheduled, it comes back unscheduled (not the new-task default of ticked).
    const unscheduled = await post(`/server/${id}/tasks`, ctx.admin.token, { name: "", cronSchedule: "0 0 */1 * *", operations });
    expect(dialog(await unscheduled.text(), "task-new")).toMatch(/<input type="checkbox" name="scheduled"\/>/);
    expect(await tasksOf(id)).toEqual({});
  });

  test("editing: invalid JSON and an operation the user may not use show that task's dialog with the error", async () => {
    const id = await ctx.createServer("Tasks Edit Refused");
    const taskId = await createTask(id, { name: "Say hello", cronSchedule: "0 12 * * ?", operations: [{ type: "sleep", seconds: 1 }] });
    const other = await createTask(id, { name: "Other", cronSchedule: null });

    const broken = await post(`/server/${id}/tasks/${taskId}`, ctx.admin.token, { name: "Say hello again", scheduled: "on", cronSchedule: "0 12 * * ?", operations: "[{ not json" });
    expect(broken.status).toBe(400);
    const html = await broken.text();
    const edit = dialog(html, "task-edit", taskId);
    expect(isOpen(edit)).toBe(true);
    expect(edit).toContain("The JSON data is invalid");
    expect(edit).toContain('value="Say hello again"');
    // The steps it could not read are shown as stored.
    expect(edit).toContain("&quot;seconds&quot;: 1");
    expect(isOpen(dialog(html, "task-edit", other))).toBe(false);
    expect(isOpen(dialog(html, "task-new"))).toBe(false);

    // editServerData lets a user into the tab, but a console step needs sendServerConsole too.
    const editor = await userWith(id, { editServerData: true });
    const denied = await post(`/server/${id}/tasks/${taskId}`, editor.token, { name: "Say hello", scheduled: "on", cronSchedule: "0 12 * * ?", operations: JSON.stringify([{ type: "console", command: "say hi" }]) });
    expect(denied.status).toBe(403);
    const deniedEdit = dialog(await denied.text(), "task-edit", taskId);
    expect(isOpen(deniedEdit)).toBe(true);
    expect(deniedEdit).toContain("You do not have permission to perform this action");
    expect((await tasksOf(id))[taskId]!.operations).toEqual([{ type: "sleep", seconds: 1 }]);
  });
});
