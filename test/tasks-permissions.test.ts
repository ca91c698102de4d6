// What a user may put in a task and run, through the panel's proxy with a real node: no more
// than they may do by hand, checked on save, on run now (the caller's rights, not the author's),
// and before every scheduled run (the author's rights as they are then, asked of the panel).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAs } from "./helpers/app";
import { eventually, type TestNode } from "./helpers/node";
import { jsonInit, type PanelWithNode } from "./helpers/panel-node";
import { taskCheckingPanel, type TaskCheckingPanel } from "./helpers/task-checking-panel";
import { FakeClock } from "./helpers/fake-clock";
import { panelAuthorization } from "../daemon/http/node-auth";
import type { ServerFlag } from "../core/scopes";

const clock = new FakeClock(new Date(2026, 10, 23, 12, 0, 30).getTime());
let rig: TaskCheckingPanel;
let node: TestNode;
let ctx: PanelWithNode;
let id: string;

beforeAll(async () => {
  // The node asks the panel over HTTP, as a remote node would.
  rig = await taskCheckingPanel({ clock });
  ({ node, ctx } = rig);
  id = await ctx.createServer("scheduled");
});
afterAll(() => rig.stop());

/** The admin changes access through the API, as on the users tab. */
async function asAdmin(method: string, path: string, body?: unknown): Promise<void> {
  const res = await ctx.panel.request(path, { token: ctx.admin.token, ...jsonInit(method, body) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}
const share = (email: string, flags: ServerFlag[]) => asAdmin("PUT", `/api/servers/${id}/user/${encodeURIComponent(email)}`, Object.fromEntries(flags.map((f) => [f, true])));

async function userWith(flags: ServerFlag[]) {
  const user = await loginAs(ctx.panel.db, []);
  await share(user.email, flags);
  return user;
}
const tasksUrl = () => `/proxy/daemon/server/${id}/tasks`;
const task = (operations: unknown[], cronSchedule: string | null = null) => ({ name: "t", cronSchedule, operations });
async function save(token: string, body: unknown, taskId?: string): Promise<Response> {
  return ctx.panel.request(taskId ? `${tasksUrl()}/${taskId}` : tasksUrl(), { token, ...jsonInit(taskId ? "PUT" : "POST", body) });
}
const listed = async () => ((await (await ctx.panel.request(tasksUrl(), { token: ctx.admin.token })).json()) as { tasks: Record<string, any> }).tasks;
const consoleText = async () => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
async function expectRefused(response: Response, permission: string): Promise<void> {
  expect(response.status).toBe(403);
  const body = await response.json();
  expect(body.error.code).toBe("ErrNoPermission");
  expect(body.error.metadata.permission).toBe(permission);
}

describe("saving a task", () => {
  test("a user with editServerData and sendServerConsole may save console steps, not command, start or file steps", async () => {
    const user = await userWith(["editServerData", "sendServerConsole"]);
    const saved = await save(user.token, task([{ type: "console", command: "say hi" }, { type: "sleep", seconds: 2 }]));
    expect(saved.status).toBe(201);
    const { id: taskId } = await saved.json();
    // The panel records who saved it, for the checks of scheduled runs.
    expect((await listed())[taskId].owner).toBe(user.userId);

    await expectRefused(await save(user.token, task([{ type: "command", commands: ["touch owned"] }])), "admin");
    await expectRefused(await save(user.token, task([{ type: "console", command: "a" }, { type: "start" }])), "startServer");
    await expectRefused(await save(user.token, task([{ type: "restart" }])), "stopServer");
    await expectRefused(await save(user.token, task([{ type: "writefile", target: "a", text: "b" }])), "putServerFiles");
    await expectRefused(await save(user.token, task([{ type: "download", files: ["http://example.com/x"] }])), "admin");
    await expectRefused(await save(user.token, task([{ type: "start" }]), taskId), "startServer");
    // Nothing of the refused saves reached the node.
    const all = await listed();
    expect(Object.keys(all)).toEqual([taskId]);
    expect(all[taskId].operations.map((o: { type: string }) => o.type)).toEqual(["console", "sleep"]);
  });

  test("each flag allows its own operations", async () => {
    const user = await userWith(["editServerData", "startServer", "stopServer", "putServerFiles"]);
    for (const operations of [[{ type: "start" }], [{ type: "stop" }, { type: "kill" }], [{ type: "restart" }], [{ type: "mkdir", target: "d" }, { type: "move", source: "d", target: "e" }]]) {
      expect((await save(user.token, task(operations))).status).toBe(201);
    }
  });

  test("without editServerData nothing is saved or listed; bad tasks are the catalogue's errors", async () => {
    const user = await userWith(["sendServerConsole", "startServer"]);
    expect((await save(user.token, task([{ type: "console", command: "x" }]))).status).toBe(403);
    expect((await ctx.panel.request(tasksUrl(), { token: user.token })).status).toBe(403);
    const bad = async (body: unknown, code: string) => {
      const response = await ctx.panel.request(tasksUrl(), { token: ctx.admin.token, method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe(code);
    };
    await bad({ name: "x", cronSchedule: "0 25 * * *", operations: [] }, "ErrTaskScheduleInvalid");
    await bad({ name: " ", cronSchedule: null, operations: [] }, "ErrFieldRequired");
    await bad("{broken", "ErrInvalidJson");
  });
});

describe("run now", () => {
  test("checks the caller's rights for every operation: an admin's task does not lend them", async () => {
    const created = await save(ctx.admin.token, task([{ type: "console", command: "hello" }, { type: "command", commands: ["true"] }]));
    const { id: taskId } = await created.json();
    const run = (token: string) => ctx.panel.request(`${tasksUrl()}/${taskId}/run`, { token, method: "POST" });
    const consoleOnly = await userWith(["editServerData", "sendServerConsole"]);
    await expectRefused(await run(consoleOnly.token), "admin");
    expect(await consoleText()).not.toContain(`task "t": started (run by hand)`);
    const response = await run(ctx.admin.token);
    expect(response.status).toBe(202);
    await eventually(async () => (await consoleText()).includes('task "t": started (run by hand)'), 3000, "run line");
    expect((await ctx.panel.request(`${tasksUrl()}/nosuch/run`, { token: ctx.admin.token, method: "POST" })).status).toBe(404);
  });
});

describe("scheduled runs", () => {
  test("run while the author may; stop when a flag, their access or the account goes", async () => {
    const user = await userWith(["editServerData", "putServerFiles"]);
    const saved = await save(user.token, { name: "minutely", cronSchedule: "* * * * *", operations: [{ type: "mkdir", target: "made-by-task" }] });
    expect(saved.status).toBe(201);
    const minute = 60_000;
    const runs = async () => (await consoleText()).split('task "minutely": finished').length - 1;
    const refusals = async () => (await consoleText()).split('task "minutely": not run:').length - 1;

    await clock.advanceTo(clock.now() + minute);
    await eventually(async () => (await runs()) === 1, 5000, "first scheduled run");

    await share(user.email, ["editServerData"]);
    await clock.advanceTo(clock.now() + minute);
    await eventually(async () => (await refusals()) === 1, 5000, "refused without the flag");
    expect(await consoleText()).toContain(`${user.email} no longer may`);

    await asAdmin("DELETE", `/api/servers/${id}/user/${encodeURIComponent(user.email)}`);
    await clock.advanceTo(clock.now() + minute);
    await eventually(async () => (await refusals()) === 2, 5000, "refused without access");
    // Without access the reason names the owner by id only: a node learns no email by asking (test/security/task-check-owner).
    expect(await consoleText()).toContain(`the user who saved the task (#${user.userId}) no longer has access to the server`);
    expect(await consoleText()).not.toContain(`${user.email} no longer has`);
    const saidWithoutAccess = (await consoleText()).split(`the user who saved the task (#${user.userId}) no longer has access to the server`).length - 1;

    await asAdmin("DELETE", `/api/users/${user.userId}`);
    await clock.advanceTo(clock.now() + minute);
    await eventually(async () => (await refusals()) === 3, 5000, "refused for a deleted user");
    // A deleted account is refused as one without access: the reason again, nothing more.
    const said = (text: string) => text.split(`the user who saved the task (#${user.userId}) no longer has access to the server`).length - 1;
    expect(said(await consoleText())).toBe(2 * saidWithoutAccess);
    expect(await runs()).toBe(1);
  });

  test("the check answers only a node holding the server", async () => {
    const saved = await save(ctx.admin.token, task([{ type: "command", commands: ["true"] }]));
    expect(saved.status).toBe(201);
    const { id: taskId } = await saved.json();
    const ask = (secret: string | null, serverId = id) =>
      ctx.panel.request("/api/nodes/tasks/check", {
        method: "POST",
        headers: { "content-type": "application/json", ...(secret ? { authorization: panelAuthorization({ secret }, "POST", "http://panel/api/nodes/tasks/check") } : {}) },
        body: JSON.stringify({ serverId, task: taskId, owner: ctx.admin.userId, operations: ["command"] }),
      });
    expect((await ask(node.config.secret)).status).toBe(204);
    expect((await ask(null)).status).toBe(401);
    expect((await ask("another-secret-another-secret")).status).toBe(401);
    expect((await ask(node.config.secret, "ffffffff")).status).toBe(404);
  });
});
