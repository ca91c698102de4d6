// The node's scheduled tasks with a clock the test moves: the task API, runs at their minute and
// not twice, not after delete, kept across a restart without replaying missed times, every
// operation against a real server process, and the check of the author's rights before a
// scheduled run.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StoredTask } from "../core/tasks";
import { startTestNode, echoTemplate, eventually, type TestNode } from "./helpers/node";
import { FakeClock } from "./helpers/fake-clock";
import { tempDir } from "./helpers/process";

/** Monday 23 November 2026, 09:58 in the node's (the test process's) time zone. */
const START = new Date(2026, 10, 23, 9, 58).getTime();
const at = (day: number, hour: number, minute: number, second = 0) => new Date(2026, 10, day, hour, minute, second).getTime();

const clock = new FakeClock(START);
/** What the check of scheduled runs answered, and for which tasks it was asked. */
let refusal: string | null = null;
const checked: Array<{ serverId: string; task: StoredTask }> = [];
let t: TestNode;

beforeAll(async () => {
  t = await startTestNode({
    stopTimeoutMs: 2000,
    clock,
    checkTask: async (serverId, task) => {
      checked.push({ serverId, task });
      return refusal;
    },
  });
});
afterAll(() => t.stop());

async function newServer(id: string): Promise<void> {
  expect((await t.call("PUT", `/daemon/server/${id}`, echoTemplate())).status).toBe(201);
}
const consoleText = async (id: string) => ((await t.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
const count = (text: string, part: string) => text.split(part).length - 1;
async function createTask(id: string, task: Partial<StoredTask>): Promise<string> {
  const response = await t.call("POST", `/daemon/server/${id}/tasks`, { name: "task", cronSchedule: null, operations: [], ...task });
  expect(response.status).toBe(201);
  return (await response.json()).id;
}
const serverFile = (id: string, name: string) => t.folder(id, name);

describe("task API", () => {
  beforeAll(() => newServer("api1"));

  test("GET is {tasks} with an empty map until a task is made; POST returns its id; PUT and DELETE change it", async () => {
    expect(await t.json("GET", "/daemon/server/api1/tasks")).toEqual({ tasks: {} });
    const id = await createTask("api1", { name: "  Nightly  ", cronSchedule: "0 3 * * *", operations: [{ type: "console", command: "save-all" }, { type: "sleep", seconds: "5" } as never] });
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(await t.json("GET", "/daemon/server/api1/tasks")).toEqual({
      // nextRun: when it runs next by the node's clock (03:00 tomorrow), not stored.
      tasks: { [id]: { name: "Nightly", cronSchedule: "0 3 * * *", operations: [{ type: "console", command: "save-all" }, { type: "sleep", seconds: 5 }], nextRun: at(24, 3, 0) } },
    });
    expect((await t.call("PUT", `/daemon/server/api1/tasks/${id}`, { name: "Manual", cronSchedule: "", operations: [{ type: "stop" }], owner: 7 })).status).toBe(204);
    expect((await t.json("GET", "/daemon/server/api1/tasks")).tasks[id]).toEqual({ name: "Manual", cronSchedule: null, operations: [{ type: "stop" }], owner: 7, nextRun: null });
    // Kept as a map by id, written whole (no temporary file left behind).
    const file = join(t.config.dataDir, "tasks", "api1.json");
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")))).toEqual([id]);
    expect(readdirSync(join(t.config.dataDir, "tasks")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    expect((await t.call("DELETE", `/daemon/server/api1/tasks/${id}`)).status).toBe(204);
    expect(await t.json("GET", "/daemon/server/api1/tasks")).toEqual({ tasks: {} });
  });

  test("bad tasks are refused with a clear error and change nothing", async () => {
    const id = await createTask("api1", { name: "kept" });
    const before = readFileSync(join(t.config.dataDir, "tasks", "api1.json"), "utf8");
    const cases: Array<[unknown, string]> = [
      [{ name: "x", cronSchedule: "61 * * * *", operations: [] }, "ErrTaskScheduleInvalid"],
      [{ name: "x", cronSchedule: "every day", operations: [] }, "ErrTaskScheduleInvalid"],
      [{ name: "x", cronSchedule: "0 0 * * * *", operations: [] }, "ErrTaskScheduleInvalid"],
      [{ name: "   ", cronSchedule: null, operations: [] }, "ErrFieldRequired"],
      [{ name: "x", cronSchedule: null, operations: [{ type: "teleport" }] }, "ErrInvalidJson"],
      [{ name: "x", cronSchedule: null, operations: [{ type: "sleep", seconds: 0 }] }, "ErrInvalidJson"],
      [{ name: "x", cronSchedule: null, operations: [{ type: "console", command: " " }] }, "ErrInvalidJson"],
    ];
    for (const [body, code] of cases) {
      for (const [method, path] of [["POST", "/daemon/server/api1/tasks"], ["PUT", `/daemon/server/api1/tasks/${id}`]] as const) {
        const response = await t.call(method, path, body);
        expect(response.status).toBe(400);
        expect((await response.json()).error.code).toBe(code);
      }
    }
    expect((await t.call("POST", "/daemon/server/api1/tasks", "{nope")).status).toBe(400);
    expect(readFileSync(join(t.config.dataDir, "tasks", "api1.json"), "utf8")).toBe(before);
    expect((await t.call("PUT", "/daemon/server/api1/tasks/nothere", { name: "x" })).status).toBe(404);
    expect((await t.call("DELETE", "/daemon/server/api1/tasks/nothere")).status).toBe(404);
    expect((await t.call("POST", "/daemon/server/api1/tasks/nothere/run")).status).toBe(404);
    expect((await t.call("GET", "/daemon/server/nosuch/tasks")).status).toBe(404);
    expect((await t.call("POST", "/daemon/server/nosuch/tasks", { name: "x" })).status).toBe(404);
  });
});

describe("scheduler", () => {
  beforeAll(() => newServer("sched1"));

  test("a task fires at its minute, once, and again the next day; a manual task never does", async () => {
    const id = await createTask("sched1", { name: "daily", cronSchedule: "0 10 * * *", operations: [{ type: "mkdir", target: "ran" }] });
    await createTask("sched1", { name: "manual", cronSchedule: null, operations: [{ type: "mkdir", target: "manual" }] });
    await clock.advanceTo(at(23, 9, 59, 59));
    expect(count(await consoleText("sched1"), 'task "daily": started')).toBe(0);
    await clock.advanceTo(at(23, 10, 0));
    await eventually(async () => count(await consoleText("sched1"), 'task "daily": finished') === 1, 3000, "first run");
    expect(existsSync(serverFile("sched1", "ran"))).toBe(true);
    await clock.advanceTo(at(23, 23, 59));
    expect(count(await consoleText("sched1"), 'task "daily": started')).toBe(1);
    await clock.advanceTo(at(24, 10, 0));
    await eventually(async () => count(await consoleText("sched1"), 'task "daily": finished') === 2, 3000, "second run");
    expect(await consoleText("sched1")).not.toContain('task "manual"');
    // Not after delete: no timer is left for it.
    expect((await t.call("DELETE", `/daemon/server/sched1/tasks/${id}`)).status).toBe(204);
    await clock.advanceTo(at(26, 12, 0));
    expect(count(await consoleText("sched1"), 'task "daily": started')).toBe(2);
  });

  test("a run still going when its next minute comes is not started twice", async () => {
    const id = await createTask("sched1", { name: "slow", cronSchedule: "* * * * *", operations: [{ type: "sleep", seconds: 90 }] });
    const base = clock.now() - (clock.now() % 60_000);
    await clock.advanceTo(base + 60_000);
    await eventually(async () => count(await consoleText("sched1"), 'task "slow": started') === 1, 3000, "started");
    await clock.advanceTo(base + 120_000);
    await eventually(async () => (await consoleText("sched1")).includes('task "slow": not started at its scheduled time: the previous run is still going'), 3000, "skip line");
    await clock.advanceTo(base + 150_000);
    await eventually(async () => count(await consoleText("sched1"), 'task "slow": finished') === 1, 3000, "finished");
    await clock.advanceTo(base + 180_000);
    await eventually(async () => count(await consoleText("sched1"), 'task "slow": started') === 2, 3000, "started again");
    // Deleting it cancels the run in progress.
    expect((await t.call("DELETE", `/daemon/server/sched1/tasks/${id}`)).status).toBe(204);
    await eventually(async () => (await consoleText("sched1")).includes('task "slow": step 1/1 (sleep) failed: cancelled'), 3000, "cancelled");
  });

  test("schedules survive a restart; times missed while the node was down are not replayed", async () => {
    await newServer("sched2");
    await createTask("sched2", { name: "hourly", cronSchedule: "30 * * * *", operations: [{ type: "mkdir", target: "x" }] });
    await t.stop();
    // Three days pass while the node is down: 72 half-past times are missed.
    const downUntil = clock.now() + 3 * 86_400_000;
    await clock.advanceTo(downUntil);
    t = await t.restart();
    await Bun.sleep(50);
    expect(await consoleText("sched2")).not.toContain('task "hourly"');
    const nextHalfPast = new Date(downUntil);
    nextHalfPast.setMinutes(30, 0, 0);
    if (nextHalfPast.getTime() <= downUntil) nextHalfPast.setHours(nextHalfPast.getHours() + 1);
    await clock.advanceTo(nextHalfPast.getTime());
    await eventually(async () => count(await consoleText("sched2"), 'task "hourly": finished') === 1, 3000, "run after restart");
    expect(count(await consoleText("sched2"), 'task "hourly": started')).toBe(1);
  });

  test("a scheduled run asks whether its author may still do all of it; a refusal is on the console and nothing runs", async () => {
    await newServer("sched3");
    const tasks = t.node.scheduler;
    expect(tasks).toBeDefined();
    checked.length = 0;
    refusal = "owner@example.com no longer may: a stop step needs the stopServer permission";
    const id = await createTask("sched3", { name: "owned", cronSchedule: "15 * * * *", operations: [{ type: "mkdir", target: "owned" }], owner: 12 });
    const next = new Date(clock.now());
    next.setMinutes(15, 0, 0);
    if (next.getTime() <= clock.now()) next.setHours(next.getHours() + 1);
    await clock.advanceTo(next.getTime());
    await eventually(async () => (await consoleText("sched3")).includes(`task "owned": not run: ${refusal}`), 3000, "refusal line");
    expect(checked.map((c) => [c.serverId, c.task.owner, c.task.operations.map((o) => o.type)])).toEqual([["sched3", 12, ["mkdir"]]]);
    expect(existsSync(serverFile("sched3", "owned"))).toBe(false);
    refusal = null;
    await clock.advanceTo(next.getTime() + 3600_000);
    await eventually(async () => (await consoleText("sched3")).includes('task "owned": finished'), 3000, "allowed run");
    expect(existsSync(serverFile("sched3", "owned"))).toBe(true);
    // Run now is checked by the panel for the caller; the node does not ask again.
    checked.length = 0;
    expect((await t.call("POST", `/daemon/server/sched3/tasks/${id}/run`)).status).toBe(202);
    await eventually(async () => count(await consoleText("sched3"), 'task "owned": finished') === 2, 3000, "run now");
    expect(checked).toEqual([]);
  });

  test("deleting a server deletes its tasks", async () => {
    await newServer("gone1");
    await createTask("gone1", { name: "x", cronSchedule: "* * * * *" });
    expect(existsSync(join(t.config.dataDir, "tasks", "gone1.json"))).toBe(true);
    expect((await t.call("DELETE", "/daemon/server/gone1")).status).toBe(204);
    expect(existsSync(join(t.config.dataDir, "tasks", "gone1.json"))).toBe(false);
    await clock.advanceTo(clock.now() + 120_000);
  });
});

describe("operations", () => {
  beforeAll(() => newServer("ops1"));
  const run = async (operations: unknown[], name = "ops") => {
    const id = await createTask("ops1", { name, operations: operations as never });
    const response = await t.call("POST", `/daemon/server/ops1/tasks/${id}/run?wait=true`);
    expect(response.status).toBe(200);
    return (await response.json()).succeeded as boolean;
  };
  const status = async () => (await t.json("GET", "/daemon/server/ops1/status")).running as boolean;

  test("file steps change files inside the server's folder", async () => {
    expect(
      await run([
        { type: "mkdir", target: "config" },
        { type: "writefile", target: "config/a.txt", text: "level=1" },
        { type: "alterfile", file: "config/a.txt", regex: false, search: "1", replace: "2" },
        { type: "move", source: "config/a.txt", target: "config/b.txt" },
      ], "files"),
    ).toBe(true);
    expect(readFileSync(serverFile("ops1", "config/b.txt"), "utf8")).toBe("level=2");
    const text = await consoleText("ops1");
    expect(text).toContain('task "files": started (run by hand)');
    expect(text).toContain('task "files": step 4/4: move');
    expect(text).toContain('task "files": finished');
    // The jail holds for task steps too.
    expect(await run([{ type: "writefile", target: "../escape.txt", text: "x" }], "escape")).toBe(false);
    expect(existsSync(join(t.config.dataDir, "servers", "escape.txt"))).toBe(false);
    expect(await consoleText("ops1")).toContain('task "escape": step 1/1 (writefile) failed:');
  });

  test("command runs in the server's environment with its variables", async () => {
    expect(await run([{ type: "command", commands: ["sh -c 'echo ${greeting} > greeting.txt'"] }], "cmd")).toBe(true);
    expect(readFileSync(serverFile("ops1", "greeting.txt"), "utf8").trim()).toBe("world");
  });

  test("start, console, restart, stop, kill and sleep; a failing step stops the run with a clear line", async () => {
    writeFileSync(serverFile("ops1", "motd.txt"), "motd");
    // A console command to a stopped server fails, and the steps after it do not run.
    expect(await run([{ type: "console", command: "hello" }, { type: "mkdir", target: "after" }], "early")).toBe(false);
    const early = await consoleText("ops1");
    expect(early).toContain('task "early": step 1/2 (console) failed: the server is not running');
    expect(existsSync(serverFile("ops1", "after"))).toBe(false);

    expect(await run([{ type: "start" }, { type: "console", command: "from a task" }], "start")).toBe(true);
    await eventually(async () => (await consoleText("ops1")).includes("got from a task"), 5000, "command reached the process");
    expect(await status()).toBe(true);

    expect(await run([{ type: "restart" }], "restart")).toBe(true);
    expect(await status()).toBe(true);
    expect(await run([{ type: "stop" }], "stop")).toBe(true);
    expect(await status()).toBe(false);
    expect(await consoleText("ops1")).toContain("got quit");

    expect(await run([{ type: "start" }, { type: "kill" }], "kill")).toBe(true);
    await eventually(async () => !(await status()), 5000, "killed");

    const id = await createTask("ops1", { name: "nap", operations: [{ type: "sleep", seconds: 30 }, { type: "mkdir", target: "woke" }] });
    expect((await t.call("POST", `/daemon/server/ops1/tasks/${id}/run`)).status).toBe(202);
    await eventually(async () => (await consoleText("ops1")).includes('task "nap": step 1/2: sleep 30 s'), 3000, "sleeping");
    // Run now while it runs: refused, not started twice.
    const again = await t.call("POST", `/daemon/server/ops1/tasks/${id}/run`);
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("ErrServerBusy");
    expect(existsSync(serverFile("ops1", "woke"))).toBe(false);
    await clock.advanceTo(clock.now() + 30_000);
    await eventually(() => existsSync(serverFile("ops1", "woke")), 3000, "woke");
  });
});

describe("a crash while tasks were written", () => {
  test("the node removes half-written task files at start and keeps the whole ones", async () => {
    const dataDir = tempDir("kiln-node-");
    mkdirSync(join(dataDir, "tasks"), { recursive: true });
    writeFileSync(join(dataDir, "tasks", "1a2b3c4d.json"), "{}");
    writeFileSync(join(dataDir, "tasks", "1a2b3c4d.json.4242.1700000000000.tmp"), '{"half');
    const node = await startTestNode({ dataDir });
    try {
      expect(readdirSync(join(dataDir, "tasks"))).toEqual(["1a2b3c4d.json"]);
    } finally {
      await node.stop();
    }
  });
});

describe("a task's last and next run", () => {
  beforeAll(() => newServer("times1"));

  test("next run by the node's clock; the last run with its outcome, kept when the task is edited", async () => {
    await clock.advanceTo(at(23, 10, 2));
    // A console command reaches a running server only.
    expect((await t.call("POST", "/daemon/server/times1/start?wait=true")).status).toBe(204);
    const id = await createTask("times1", { name: "Every five", cronSchedule: "*/5 * * * *", operations: [{ type: "console", command: "hi" }] });
    let listed = (await t.json("GET", "/daemon/server/times1/tasks")).tasks[id];
    expect(listed.nextRun).toBe(at(23, 10, 5));
    expect(listed.lastRun).toBeUndefined();
    // A scheduled run at 10:05; its record says when and how, and the next time moves on.
    await clock.advanceTo(at(23, 10, 5));
    await eventually(async () => (await t.json("GET", "/daemon/server/times1/tasks")).tasks[id].lastRun !== undefined, 5000, "the run's record");
    listed = (await t.json("GET", "/daemon/server/times1/tasks")).tasks[id];
    expect(listed.lastRun).toEqual({ at: at(23, 10, 5), ok: true, how: "scheduled" });
    expect(listed.nextRun).toBe(at(23, 10, 10));
    // Edited (the panel sends no lastRun): what it did last stays.
    expect((await t.call("PUT", `/daemon/server/times1/tasks/${id}`, { name: "Renamed", cronSchedule: "*/5 * * * *", operations: [{ type: "console", command: "hi" }] })).status).toBe(204);
    expect((await t.json("GET", "/daemon/server/times1/tasks")).tasks[id].lastRun).toEqual({ at: at(23, 10, 5), ok: true, how: "scheduled" });
    // A run by hand that fails: a step that writes outside the server's folder is refused.
    const failing = await createTask("times1", { name: "Broken", operations: [{ type: "writefile", target: "../outside.txt", text: "x" } as never] });
    await t.call("POST", `/daemon/server/times1/tasks/${failing}/run`);
    await eventually(async () => (await t.json("GET", "/daemon/server/times1/tasks")).tasks[failing].lastRun !== undefined, 5000, "the failed run's record");
    expect((await t.json("GET", "/daemon/server/times1/tasks")).tasks[failing].lastRun).toMatchObject({ ok: false, how: "manual" });
    expect((await t.json("GET", "/daemon/server/times1/tasks")).tasks[failing].nextRun).toBeNull();
  });
});
