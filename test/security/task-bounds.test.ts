// Attack: scheduled tasks as a way to do more than one may by hand. Users holding editServerData
// and little else save tasks with steps they may not use, spoof the owner, run an admin's task,
// aim file steps outside the server's folder, and keep a task scheduled after losing a flag
// (the node asks the panel before each scheduled run, over HTTP, as a remote node would).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerFlag } from "../../core/scopes";
import { FakeClock } from "../helpers/fake-clock";
import { eventually, type TestNode } from "../helpers/node";
import { grantFlags, jsonInit, userWithFlags, type PanelWithNode } from "../helpers/panel-node";
import { taskCheckingPanel, type TaskCheckingPanel } from "../helpers/task-checking-panel";

const clock = new FakeClock(new Date(2026, 10, 23, 12, 0, 30).getTime());
let rig: TaskCheckingPanel;
let node: TestNode;
let ctx: PanelWithNode;
let id = "";
let folder = "";
const neighbour = () => node.folder("neighbour");

beforeAll(async () => {
  rig = await taskCheckingPanel({ clock });
  ({ node, ctx } = rig);
  id = await ctx.createServer("task bounds");
  folder = node.folder(id);
  mkdirSync(neighbour(), { recursive: true });
  writeFileSync(join(neighbour(), "keep.txt"), "neighbour");
});
afterAll(() => rig.stop());

const setFlags = (email: string, flags: ServerFlag[]) => grantFlags(ctx, id, email, flags);
const userWith = (flags: ServerFlag[]) => userWithFlags(ctx, id, flags);
const tasksUrl = () => `/proxy/daemon/server/${id}/tasks`;
const save = (token: string, operations: unknown[], extra: Record<string, unknown> = {}, taskId?: string) =>
  ctx.panel.request(taskId ? `${tasksUrl()}/${taskId}` : tasksUrl(), { token, ...jsonInit(taskId ? "PUT" : "POST", { name: "t", cronSchedule: null, operations, ...extra }) });
const stored = async () => ((await node.json("GET", `/daemon/server/${id}/tasks`)) as { tasks: Record<string, { owner?: number; operations: Array<{ type: string }> }> }).tasks;
const consoleText = async () => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
async function expectRefused(response: Response, code = "ErrNoPermission"): Promise<void> {
  expect(response.status).toBeLessThan(500);
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect((await response.json()).error.code).toBe(code);
}

describe("saving: a task holds no step its author may not use by hand", () => {
  test("editServerData alone: every step but sleep is refused, and the node's tasks stay as they were", async () => {
    const user = await userWith(["editServerData"]);
    const before = await stored();
    const steps = [
      { type: "console", command: "op attacker" },
      { type: "start" },
      { type: "stop" },
      { type: "kill" },
      { type: "restart" },
      { type: "writefile", target: "a.txt", text: "x" },
      { type: "mkdir", target: "d" },
      { type: "move", source: "motd.txt", target: "moved.txt" },
      { type: "alterfile", file: "motd.txt", search: "hello", replace: "pwned", regex: false },
      { type: "command", commands: ["touch owned"] },
      { type: "download", files: ["http://127.0.0.1:1/x"] },
      { type: "javadl", version: "17" },
      { type: "steamgamedl", appId: "90" },
    ];
    for (const step of steps) await expectRefused(await save(user.token, [{ type: "sleep", seconds: 1 }, step]));
    // Spellings that are not a step type are not a way round the check.
    for (const type of ["Command", "COMMAND", " command", "command\u0000"]) await expectRefused(await save(user.token, [{ type, commands: ["id"] }]), "ErrInvalidJson");
    expect(await stored()).toEqual(before);
  });

  test("a non-admin with every flag still may not save command or download steps, nor keep them in an admin's task", async () => {
    const user = await userWith(["editServerData", "sendServerConsole", "startServer", "stopServer", "putServerFiles", "installServer"]);
    const { id: adminTask } = await (await save(ctx.admin.token, [{ type: "command", commands: ["true"] }])).json();
    const before = await stored();
    await expectRefused(await save(user.token, [{ type: "command", commands: ["true"] }]));
    await expectRefused(await save(user.token, [{ type: "download", files: ["http://127.0.0.1:1/x"] }]));
    await expectRefused(await save(user.token, [{ type: "command", commands: ["true"] }], { cronSchedule: "* * * * *" }, adminTask));
    expect(await stored()).toEqual(before);
  });

  test("the owner cannot be spoofed: the panel records who saved", async () => {
    const user = await userWith(["editServerData", "sendServerConsole"]);
    const response = await save(user.token, [{ type: "console", command: "hi" }], { owner: ctx.admin.userId });
    expect(response.status).toBe(201);
    expect((await stored())[(await response.json()).id]!.owner).toBe(user.userId);
  });
});

describe("running", () => {
  test("run now by a non-admin does not borrow the rights of the admin who saved the task", async () => {
    const { id: taskId } = await (await save(ctx.admin.token, [{ type: "command", commands: ["touch borrowed"] }])).json();
    const user = await userWith(["editServerData", "sendServerConsole", "startServer", "stopServer", "putServerFiles"]);
    await expectRefused(await ctx.panel.request(`${tasksUrl()}/${taskId}/run`, { token: user.token, method: "POST" }));
    await Bun.sleep(300);
    expect(existsSync(join(folder, "borrowed"))).toBe(false);
  });

  test("a flag removed after saving stops the scheduled run", async () => {
    const user = await userWith(["editServerData", "putServerFiles"]);
    expect((await save(user.token, [{ type: "writefile", target: "scheduled.txt", text: "ran" }], { name: "minutely", cronSchedule: "* * * * *" })).status).toBe(201);
    await setFlags(user.email, ["editServerData"]);
    await clock.advanceTo(clock.now() + 60_000);
    await eventually(async () => (await consoleText()).includes('task "minutely": not run:'), 5000, "the refused run");
    expect(existsSync(join(folder, "scheduled.txt"))).toBe(false);
  });

  test("file steps aimed outside the folder are refused and change nothing outside", async () => {
    const user = await userWith(["editServerData", "putServerFiles"]);
    const climbs = [
      { type: "writefile", target: "../neighbour/keep.txt", text: "pwned" },
      { type: "writefile", target: "/tmp/kiln-task-climb.txt", text: "pwned" },
      { type: "mkdir", target: "../../escaped" },
      { type: "move", source: "../neighbour/keep.txt", target: "stolen.txt" },
      { type: "move", source: "motd.txt", target: "../neighbour/planted.txt" },
      { type: "alterfile", file: "../neighbour/keep.txt", search: "neighbour", replace: "pwned", regex: false },
      { type: "writefile", target: "a/../../neighbour/keep.txt", text: "pwned" },
    ];
    for (const step of climbs) {
      const response = await save(user.token, [step], { name: `climb ${step.type}` });
      // Refused on save, or saved and refused by the jail when it runs: either way nothing moves.
      if (response.status === 201) {
        const { id: taskId } = await response.json();
        expect((await ctx.panel.request(`${tasksUrl()}/${taskId}/run`, { token: user.token, method: "POST" })).status).toBe(202);
        await eventually(async () => /task "climb \w+": (step 1\/1 \(\w+\) failed|finished)/.test(await consoleText()), 5000, `the ${step.type} run`);
        expect(await consoleText()).not.toContain(`task "climb ${step.type}": finished`);
        await ctx.panel.request(`${tasksUrl()}/${taskId}`, { token: user.token, method: "DELETE" });
      } else {
        expect(response.status).toBeLessThan(500);
      }
    }
    expect(readdirSync(neighbour())).toEqual(["keep.txt"]);
    expect(readFileSync(join(neighbour(), "keep.txt"), "utf8")).toBe("neighbour");
    expect(existsSync("/tmp/kiln-task-climb.txt")).toBe(false);
    expect(existsSync(join(node.config.dataDir, "escaped"))).toBe(false);
    expect(existsSync(join(folder, "stolen.txt"))).toBe(false);
  });
});
