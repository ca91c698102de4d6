// Attack: tasks as unbounded storage on the node. A user holding editServerData and putServerFiles
// saved task after task, each with a writefile step of megabytes of text (or any field of their
// own: template steps kept unknown fields): nothing bounded the number of tasks, a step's texts,
// or the node's <data>/tasks/<server>.json, which lives outside the server's folder and its disk
// space and is read and rewritten whole by every task call and run (60 MB in the proof, each call
// slower than the last). Now every text and list of a step, the fields a step may have, the tasks
// of a server and their size together are bounded (core/tasks), by the panel and by the node; tasks
// stored before the bounds still load, run and can be edited down.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_SERVER_TASKS_BYTES, MAX_STEP_CONTENT, MAX_STEP_LIST, MAX_STEP_TEXT, MAX_TASKS_PER_SERVER } from "../../core/tasks/constants";
import type { TestNode } from "../helpers/node";
import { grantFlags, jsonInit, userWithFlags, type PanelWithNode } from "../helpers/panel-node";
import { taskCheckingPanel, type TaskCheckingPanel } from "../helpers/task-checking-panel";

let rig: TaskCheckingPanel;
let ctx: PanelWithNode;
let node: TestNode;
let token = "";
const servers: Record<"steps" | "count" | "bytes" | "legacy", string> = { steps: "", count: "", bytes: "", legacy: "" };

beforeAll(async () => {
  rig = await taskCheckingPanel();
  ({ ctx, node } = rig);
  for (const name of Object.keys(servers) as Array<keyof typeof servers>) servers[name] = await ctx.createServer(`task size ${name}`);
  // One user on every server, with the file and console rights the steps below need.
  const flags = ["editServerData", "putServerFiles", "sendServerConsole"] as const;
  const user = await userWithFlags(ctx, servers.steps, flags);
  token = user.token;
  for (const id of [servers.count, servers.bytes, servers.legacy]) await grantFlags(ctx, id, user.email, flags);
});
afterAll(() => rig.stop());

const tasksUrl = (id: string) => `/proxy/daemon/server/${id}/tasks`;
const body = (operations: unknown[], name = "t") => ({ name, cronSchedule: null, operations });
const save = (id: string, operations: unknown[], as = token, name = "t") => ctx.panel.request(tasksUrl(id), { token: as, ...jsonInit("POST", body(operations, name)) });
const taskFile = (id: string) => join(node.config.dataDir, "tasks", `${id}.json`);
const stored = async (id: string) => ((await node.json("GET", `/daemon/server/${id}/tasks`)) as { tasks: Record<string, unknown> }).tasks;
/** Tasks as a node of an older version could have stored them: straight into its task file. */
function storeDirectly(id: string, tasks: Record<string, unknown>): void {
  mkdirSync(join(node.config.dataDir, "tasks"), { recursive: true });
  writeFileSync(taskFile(id), JSON.stringify(tasks));
}
async function expectRefused(response: Response, code: string, metadata: Record<string, unknown>): Promise<void> {
  expect(response.status).toBe(400);
  expect((await response.json()).error).toMatchObject({ code, metadata });
}

describe("a step holds bounded texts and lists, and only its own fields", () => {
  test("over a bound or an unknown field: refused, naming it; nothing stored", async () => {
    const id = servers.steps;
    const before = await stored(id);
    const long = (n: number) => "A".repeat(n);
    await expectRefused(await save(id, [{ type: "writefile", target: "x.txt", text: long(MAX_STEP_CONTENT + 1) }]), "ErrFieldTooLarge", { field: "operations.0.text", max: MAX_STEP_CONTENT });
    await expectRefused(await save(id, [{ type: "writefile", target: long(MAX_STEP_TEXT + 1), text: "x" }]), "ErrFieldTooLarge", { field: "operations.0.target", max: MAX_STEP_TEXT });
    await expectRefused(await save(id, [{ type: "console", command: long(MAX_STEP_TEXT + 1) }]), "ErrFieldTooLarge", { field: "operations.0.command", max: MAX_STEP_TEXT });
    await expectRefused(await save(id, [{ type: "command", commands: Array(MAX_STEP_LIST + 1).fill("true") }], ctx.admin.token), "ErrFieldTooLarge", { field: "operations.0.commands", max: MAX_STEP_LIST });
    // A field of the attacker's own was kept in the node's file as written (template steps are loose objects).
    await expectRefused(await save(id, [{ type: "writefile", target: "x.txt", text: "x", payload: long(MAX_STEP_CONTENT) }]), "ErrUnknownField", { field: "operations.0.payload" });
    await expectRefused(await save(id, [{ type: "sleep", seconds: 1, note: "x" }]), "ErrUnknownField", { field: "operations.0.note" });
    expect(await stored(id)).toEqual(before);
    // The node refuses them by the same rules when asked directly.
    const direct = await node.call("POST", `/daemon/server/${id}/tasks`, body([{ type: "writefile", target: "x.txt", text: long(MAX_STEP_CONTENT + 1) }]));
    expect((await direct.json()).error).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "operations.0.text" } });
    expect(await stored(id)).toEqual(before);
    // At the bound, saved.
    expect((await save(id, [{ type: "writefile", target: "x.txt", text: long(MAX_STEP_CONTENT) }])).status).toBe(201);
  });
});

describe("a server's tasks are bounded in number and in size together", () => {
  test(`at most ${MAX_TASKS_PER_SERVER} tasks: the panel and the node refuse one more`, async () => {
    const id = servers.count;
    const full = Object.fromEntries(Array.from({ length: MAX_TASKS_PER_SERVER }, (_, i) => [`c${String(i).padStart(7, "0")}`, body([{ type: "sleep", seconds: 1 }], `t${i}`)]));
    storeDirectly(id, full);
    await expectRefused(await save(id, [{ type: "sleep", seconds: 1 }]), "ErrFieldTooLarge", { field: "tasks", max: MAX_TASKS_PER_SERVER });
    const direct = await node.call("POST", `/daemon/server/${id}/tasks`, body([{ type: "sleep", seconds: 1 }]));
    expect((await direct.json()).error).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "tasks", max: MAX_TASKS_PER_SERVER } });
    expect(Object.keys(await stored(id))).toHaveLength(MAX_TASKS_PER_SERVER);
    // One deleted makes room for one.
    expect((await ctx.panel.request(`${tasksUrl(id)}/c0000000`, { token, method: "DELETE" })).status).toBe(204);
    expect((await save(id, [{ type: "sleep", seconds: 1 }])).status).toBe(201);
  });

  test(`at most ${MAX_SERVER_TASKS_BYTES} bytes together: the file stops growing`, async () => {
    const id = servers.bytes;
    const text = "A".repeat(MAX_STEP_CONTENT - 10);
    let saved = 0;
    let refusal: Response | undefined;
    for (let i = 0; i < 40 && !refusal; i++) {
      const response = await save(id, [{ type: "writefile", target: "x.txt", text }], token, `t${i}`);
      if (response.status === 201) saved++;
      else refusal = response;
    }
    expect(refusal).toBeDefined();
    await expectRefused(refusal!, "ErrFieldTooLarge", { field: "tasks", max: MAX_SERVER_TASKS_BYTES });
    // As many as fit, with the JSON around each text.
    expect(saved).toBeGreaterThanOrEqual(Math.floor(MAX_SERVER_TASKS_BYTES / MAX_STEP_CONTENT) - 1);
    expect(saved).toBeLessThanOrEqual(Math.floor(MAX_SERVER_TASKS_BYTES / text.length));
    expect(statSync(taskFile(id)).size).toBeLessThan(MAX_SERVER_TASKS_BYTES * 1.01);
    const direct = await node.call("POST", `/daemon/server/${id}/tasks`, body([{ type: "writefile", target: "x.txt", text }]));
    expect((await direct.json()).error).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "tasks" } });
  }, 60_000);
});

describe("tasks stored before the bounds", () => {
  test("still load and run, can be edited down, and only a save that grows them is refused", async () => {
    const id = servers.legacy;
    const big = "B".repeat(2 * MAX_STEP_CONTENT);
    const tasks: Record<string, unknown> = Object.fromEntries(Array.from({ length: MAX_TASKS_PER_SERVER + 20 }, (_, i) => [`l${String(i).padStart(7, "0")}`, body([{ type: "sleep", seconds: 1 }], `t${i}`)]));
    tasks.oldbig00 = { ...body([{ type: "writefile", target: "old.txt", text: big, comment: "kept by an older node" }], "old big"), owner: 1 };
    storeDirectly(id, tasks);
    expect(Object.keys(await stored(id))).toHaveLength(MAX_TASKS_PER_SERVER + 21);
    expect((await ctx.panel.request(tasksUrl(id), { token })).status).toBe(200);
    // It runs as stored.
    expect(await node.json("POST", `/daemon/server/${id}/tasks/oldbig00/run?wait=true`)).toEqual({ succeeded: true });
    expect(readFileSync(node.folder(id, "old.txt"), "utf8")).toBe(big);
    // A new one is refused; an edit that does not grow them is saved.
    await expectRefused(await save(id, [{ type: "sleep", seconds: 1 }]), "ErrFieldTooLarge", { field: "tasks", max: MAX_TASKS_PER_SERVER });
    const edit = await ctx.panel.request(`${tasksUrl(id)}/oldbig00`, { token, ...jsonInit("PUT", body([{ type: "writefile", target: "old.txt", text: "short" }], "old big")) });
    expect(edit.status).toBe(204);
    expect(Object.keys(await stored(id))).toHaveLength(MAX_TASKS_PER_SERVER + 21);
  });
});
