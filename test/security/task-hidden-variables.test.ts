// Attack: a task's steps as a way to read a variable the template hides from users (userEdit:
// false), which GET …/data keeps from them. A user holding editServerData, putServerFiles and
// viewServerFiles (and the console) names the hidden variable in a step's substituted fields, in
// a step's `if` condition, in a console or webhook step, through the proxy's task API and the
// tasks tab's plain form, to write it into a file or guess it. Then the variable is hidden only
// after the task was saved, and an administrator who saved a task loses the admin scope: the run
// now and the scheduled run (the node asks the panel over HTTP, as a remote node would) refuse.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { existsSync, readFileSync } from "node:fs";
import { schema } from "../../db";
import { SCOPES, type ServerFlag } from "../../core/scopes";
import { putTemplate } from "../../server/services/templates";
import { loginAs } from "../helpers/app";
import { FakeClock } from "../helpers/fake-clock";
import { echoTemplate, eventually, type TestNode } from "../helpers/node";
import { formInit, grantFlags, jsonInit, userWithFlags, type PanelWithNode } from "../helpers/panel-node";
import { taskCheckingPanel, type TaskCheckingPanel } from "../helpers/task-checking-panel";

const SECRET = "TOP-SECRET-42";
const clock = new FakeClock(new Date(2026, 10, 23, 12, 0, 30).getTime());
let rig: TaskCheckingPanel;
let node: TestNode;
let ctx: PanelWithNode;
let id = "";
/** What a non-admin who could write files and read them back holds. */
const FILE_USER: ServerFlag[] = ["editServerData", "putServerFiles", "viewServerFiles", "sendServerConsole", "manageWebhooks"];

beforeAll(async () => {
  rig = await taskCheckingPanel({ clock });
  ({ node, ctx } = rig);
  const t = echoTemplate();
  const apiKey = { display: "API key", desc: "", type: "string" as const, value: "", required: false, userEdit: false };
  await putTemplate(ctx.panel.db, "secretive", { ...t, name: "secretive", data: { ...t.data, apiKey } });
  const res = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "secretive", node: ctx.nodeId, template: "secretive", environment: { type: "standard" }, variables: { apiKey: SECRET } }) });
  expect(res.status).toBe(201);
  id = (await res.json()).id;
});
afterAll(() => rig.stop());

const tasksUrl = () => `/proxy/daemon/server/${id}/tasks`;
const save = (token: string, operations: unknown[], extra: Record<string, unknown> = {}, taskId?: string) =>
  ctx.panel.request(taskId ? `${tasksUrl()}/${taskId}` : tasksUrl(), { token, ...jsonInit(taskId ? "PUT" : "POST", { name: "t", cronSchedule: null, operations, ...extra }) });
const runNow = (token: string, taskId: string) => ctx.panel.request(`${tasksUrl()}/${taskId}/run`, { token, method: "POST" });
const stored = async () => ((await node.json("GET", `/daemon/server/${id}/tasks`)) as { tasks: Record<string, { name: string; operations: unknown[] }> }).tasks;
const consoleText = async () => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
const file = (name: string) => node.folder(id, name);
/** Every file the attacks aimed at: none may exist, nor any file whose name holds the secret. */
const leaked = () => ["leak.txt", "guess.txt", SECRET, `${SECRET}.txt`, "moved.txt"].filter((name) => existsSync(file(name)));

async function expectHiddenRefused(response: Response, variable = "apiKey"): Promise<void> {
  expect(response.status).toBe(403);
  const { error } = await response.json();
  expect(error.code).toBe("ErrNoPermission");
  expect(error.metadata).toMatchObject({ field: variable });
}

/** Makes a variable hidden from users (or shown) as an administrator would: the server's definition replaced. */
async function setUserEdit(variable: string, userEdit: boolean): Promise<void> {
  const definition = await (await ctx.panel.request(`/proxy/daemon/server/${id}`, { token: ctx.admin.token })).json();
  definition.data[variable].userEdit = userEdit;
  expect((await ctx.panel.request(`/proxy/daemon/server/${id}`, { token: ctx.admin.token, ...jsonInit("POST", definition) })).status).toBeLessThan(300);
}

/** Steps that would write the hidden value into a file, or tell it by running or not. */
const ATTACKS: Array<[string, Record<string, unknown>]> = [
  ["writefile text", { type: "writefile", target: "leak.txt", text: "key=${apiKey}" }],
  ["writefile target", { type: "writefile", target: "${apiKey}.txt", text: "x" }],
  ["mkdir target", { type: "mkdir", target: "${apiKey}" }],
  ["move target", { type: "move", source: "motd.txt", target: "${apiKey}.txt" }],
  ["alterfile replace", { type: "alterfile", file: "motd.txt", search: "hello", replace: "${apiKey}", regex: false }],
  ["alterfile search (a guess)", { type: "alterfile", file: "motd.txt", search: "${apiKey}", replace: "found", regex: true }],
  ["if condition (a guess)", { type: "writefile", target: "guess.txt", text: "T", if: "apiKey.startsWith('T')" }],
  ["if condition through a function", { type: "writefile", target: "guess.txt", text: "T", if: "size(dyn(apiKey)) > 3 && file_exists('motd.txt')" }],
  ["console command", { type: "console", command: "say ${apiKey}" }],
  ["webhook text", { type: "webhook", webhook: 1, text: "key ${apiKey}" }],
];

describe("saving: a non-admin's task names no variable hidden from them", () => {
  test("through the proxy's task API: each step refused with the catalogue error, nothing saved, no file written", async () => {
    const user = await userWithFlags(ctx, id, FILE_USER);
    const before = await stored();
    for (const [what, step] of ATTACKS) {
      await expectHiddenRefused(await save(user.token, [step], { name: what }));
      // After a harmless step too, not only as the first.
      await expectHiddenRefused(await save(user.token, [{ type: "sleep", seconds: 1 }, step], { name: what }));
    }
    // The task's variable condition, as before.
    await expectHiddenRefused(await save(user.token, [{ type: "sleep", seconds: 1 }], { conditions: { variable: "apiKey", equals: SECRET } }));
    // A field no step has (the node substitutes a step whole) is refused before anything reads it.
    const unknown = await save(user.token, [{ type: "writefile", target: "guess.txt", text: "x", note: "${apiKey}" }]);
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toMatchObject({ code: "ErrUnknownField", metadata: { field: "operations.0.note" } });
    expect(await stored()).toEqual(before);
    expect(leaked()).toEqual([]);
  });

  test("replacing a harmless task with one naming a hidden variable is refused, and the task stays as it was", async () => {
    const user = await userWithFlags(ctx, id, FILE_USER);
    const response = await save(user.token, [{ type: "writefile", target: "fine.txt", text: "fine" }], { name: "harmless" });
    expect(response.status).toBe(201);
    const { id: taskId } = await response.json();
    const before = await stored();
    for (const [what, step] of ATTACKS) await expectHiddenRefused(await save(user.token, [step], { name: what }, taskId));
    expect(await stored()).toEqual(before);
    await ctx.panel.request(`${tasksUrl()}/${taskId}`, { token: user.token, method: "DELETE" });
  });

  test("through the tasks tab's plain form (new and edit): refused with the error, nothing saved", async () => {
    const user = await userWithFlags(ctx, id, FILE_USER);
    const { id: taskId } = await (await save(user.token, [{ type: "sleep", seconds: 1 }], { name: "to edit" })).json();
    const before = await stored();
    for (const path of [`/server/${id}/tasks`, `/server/${id}/tasks/${taskId}`]) {
      for (const [what, step] of ATTACKS) {
        const response = await ctx.panel.request(path, { token: user.token, ...formInit({ name: what, operations: JSON.stringify([step]), triggers: "[]" }) });
        expect(response.status).toBe(403);
        // The dialog again, with the catalogue's sentence.
        expect(await response.text()).toContain("You do not have permission to perform this action");
      }
    }
    expect(await stored()).toEqual(before);
    await ctx.panel.request(`${tasksUrl()}/${taskId}`, { token: user.token, method: "DELETE" });
  });

  test("an administrator's task naming the hidden variable still saves and runs", async () => {
    const response = await save(ctx.admin.token, [{ type: "writefile", target: "admin.txt", text: "key=${apiKey}", if: "apiKey != ''" }], { name: "admin's" });
    expect(response.status).toBe(201);
    const { id: taskId } = await response.json();
    expect((await runNow(ctx.admin.token, taskId)).status).toBe(202);
    await eventually(() => existsSync(file("admin.txt")), 5000, "the admin's file");
    expect(readFileSync(file("admin.txt"), "utf8")).toBe(`key=${SECRET}`);
  });

  test("a non-admin's task naming a variable they may see (or no variable of the server) still saves and runs", async () => {
    const user = await userWithFlags(ctx, id, FILE_USER);
    const response = await save(user.token, [{ type: "writefile", target: "greeting.txt", text: "${greeting} ${notAVariable}", if: "greeting == 'world'" }], { name: "visible" });
    expect(response.status).toBe(201);
    const { id: taskId } = await response.json();
    expect((await runNow(user.token, taskId)).status).toBe(202);
    await eventually(() => existsSync(file("greeting.txt")), 5000, "the user's file");
    expect(readFileSync(file("greeting.txt"), "utf8")).toBe("world ${notAVariable}");
  });
});

describe("running: the variables as they are at the run, the author's rights as they are then", () => {
  test("a variable hidden after the task was saved: run now and the scheduled run are refused, no file written", async () => {
    const user = await userWithFlags(ctx, id, FILE_USER);
    const scheduled = await save(user.token, [{ type: "writefile", target: "later-scheduled.txt", text: "${greeting}" }], { name: "later scheduled", cronSchedule: "* * * * *" });
    expect(scheduled.status).toBe(201);
    const byHand = await save(user.token, [{ type: "writefile", target: "later-by-hand.txt", text: "x", if: "greeting == 'world'" }], { name: "later by hand" });
    expect(byHand.status).toBe(201);
    const byHandId = (await byHand.json()).id;
    await setUserEdit("greeting", false);
    try {
      await expectHiddenRefused(await runNow(user.token, byHandId), "greeting");
      await clock.advanceTo(clock.now() + 60_000);
      await eventually(async () => (await consoleText()).includes('task "later scheduled": not run:'), 5000, "the refused run");
      expect(await consoleText()).toContain(`the task names greeting, a variable ${user.email} may not see`);
      await Bun.sleep(200);
      expect(existsSync(file("later-scheduled.txt"))).toBe(false);
      expect(existsSync(file("later-by-hand.txt"))).toBe(false);
      // An administrator may run it now: they may read the variable by hand.
      expect((await runNow(ctx.admin.token, byHandId)).status).toBe(202);
      await eventually(() => existsSync(file("later-by-hand.txt")), 5000, "the admin's run");
    } finally {
      await setUserEdit("greeting", true);
      for (const taskId of Object.keys(await stored())) await ctx.panel.request(`${tasksUrl()}/${taskId}`, { token: ctx.admin.token, method: "DELETE" });
    }
  });

  test("an administrator who saved a task and lost the admin scope: its scheduled run is refused", async () => {
    const former = await loginAs(ctx.panel.db, [SCOPES.admin]);
    // Flags enough to write files, so only the hidden variable stops the run.
    await grantFlags(ctx, id, former.email, FILE_USER);
    expect((await save(former.token, [{ type: "writefile", target: "leak.txt", text: "key=${apiKey}" }], { name: "former admin", cronSchedule: "* * * * *" })).status).toBe(201);
    await ctx.panel.db.delete(schema.userScopes).where(and(eq(schema.userScopes.userId, former.userId), eq(schema.userScopes.scope, SCOPES.admin)));
    await clock.advanceTo(clock.now() + 60_000);
    await eventually(async () => (await consoleText()).includes('task "former admin": not run:'), 5000, "the refused run");
    expect(await consoleText()).toContain(`the task names apiKey, a variable ${former.email} may not see`);
    await Bun.sleep(200);
    expect(leaked()).toEqual([]);
  });
});
