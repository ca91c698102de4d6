// Event-triggered tasks on a real node with real server processes: a console line runs its task
// within a second and hands its groups to the steps, a crash, a state change and a resource over a
// threshold run theirs, the cooldown holds, a task whose steps print what triggers it runs once,
// conditions decide, the new steps (waitForConsole, ifState) work, and a triggered run asks the
// panel's check as a scheduled one does.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import type { StoredTask } from "../core/tasks";
import { echoTemplate, eventually, startTestNode, type TestNode } from "./helpers/node";
import { OWN_LINES_MS } from "../daemon/tasks/scheduler";

let t: TestNode;
/** What the check of automatic runs answered, and for which tasks it was asked. */
let refusal: string | null = null;
const checked: Array<{ serverId: string; task: StoredTask }> = [];

beforeAll(async () => {
  t = await startTestNode({
    stopTimeoutMs: 2000,
    checkTask: async (serverId, task) => {
      checked.push({ serverId, task });
      return refusal;
    },
  });
});
afterAll(() => t.stop());

/** The echo server, which also exits with 3 (a crash) when it reads "crash", and answers "say slow" 1.5 s late. */
const template = () =>
  echoTemplate({
    command: "sh -c 'echo up; while read l; do echo \"got $l\"; [ \"$l\" = quit ] && exit 0; [ \"$l\" = crash ] && exit 3; case \"$l\" in \"say slow\") sleep 1.5; echo \"echo of $l\";; esac; done'",
  });

async function newServer(id: string, start = true): Promise<void> {
  expect((await t.call("PUT", `/daemon/server/${id}`, template())).status).toBe(201);
  if (start) expect((await t.call("POST", `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
}
async function createTask(id: string, task: Record<string, unknown>): Promise<string> {
  const response = await t.call("POST", `/daemon/server/${id}/tasks`, { name: "task", cronSchedule: null, operations: [], ...task });
  expect(response.status).toBe(201);
  return (await response.json()).id;
}
const consoleText = async (id: string) => ((await t.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
const count = (text: string, part: string) => text.split(part).length - 1;
const send = async (id: string, command: string) => expect((await t.call("POST", `/daemon/server/${id}/console`, command)).status).toBe(204);
const serverFile = (id: string, name: string) => t.folder(id, name);
const running = async (id: string) => (await t.json("GET", `/daemon/server/${id}/status`)).running as boolean;

describe("console triggers", () => {
  beforeAll(() => newServer("trig1"));

  test("a matching line runs the task within a second, its groups in the console step", async () => {
    await createTask("trig1", {
      name: "welcome",
      triggers: [{ type: "console", pattern: "player (\\w+) joined from (?P<place>\\w+)", regex: true }],
      operations: [{ type: "console", command: "say welcome ${trigger.1} of ${trigger.place} (${trigger.0})" }],
    });
    const sent = performance.now();
    await send("trig1", "player bob joined from paris");
    await eventually(async () => (await consoleText("trig1")).includes("got say welcome bob of paris (player bob joined from paris)"), 3000, "the task's command");
    // From the command that printed the line to the process printing the task's answer, both hops included.
    expect(performance.now() - sent).toBeLessThan(1000);
    const text = await consoleText("trig1");
    expect(text).toContain('task "welcome": started (triggered: a console line matched player (\\w+) joined from (?P<place>\\w+))');
    expect(text).toContain('task "welcome": finished');
    // The node tells its panel of the run, as the task's, for the activity log and webhooks.
    await eventually(() => t.events.some((e) => e.event === "server.task.run" && e.serverId === "trig1"), 3000, "the run's report");
    expect(t.events.find((e) => e.event === "server.task.run")).toMatchObject({ properties: { name: "welcome", how: "triggered", ok: true }, actor: { type: "task", name: "welcome" } });
  });

  test("plain text is found as written; the daemon's own lines never match", async () => {
    await createTask("trig1", { name: "plain", triggers: [{ type: "console", pattern: "a.b" }], operations: [{ type: "mkdir", target: "plain-${trigger.0}" }] });
    await send("trig1", "axb");
    await Bun.sleep(400);
    expect(existsSync(serverFile("trig1", "plain-a.b"))).toBe(false);
    // A task named with the pattern writes it in its daemon lines: they are not the server's output.
    await createTask("trig1", { name: "a.b", operations: [] });
    await send("trig1", "see a.b here");
    await eventually(() => existsSync(serverFile("trig1", "plain-a.b")), 3000, "plain match");
    expect(count(await consoleText("trig1"), 'task "plain": started')).toBe(1);
  });

  test("cooldown: a second match within it does not run the task, one after it does", async () => {
    await createTask("trig1", { name: "cool", cooldownSeconds: 2, triggers: [{ type: "console", pattern: "ping-cool" }], operations: [{ type: "mkdir", target: "cool" }] });
    await send("trig1", "ping-cool 1");
    await eventually(async () => count(await consoleText("trig1"), 'task "cool": finished') === 1, 3000, "first run");
    await send("trig1", "ping-cool 2");
    await Bun.sleep(800);
    expect(count(await consoleText("trig1"), 'task "cool": started')).toBe(1);
    await Bun.sleep(1500);
    await send("trig1", "ping-cool 3");
    await eventually(async () => count(await consoleText("trig1"), 'task "cool": finished') === 2, 3000, "run after the cooldown");
  });

  test("no loop: a task whose own command prints what triggers it runs once", async () => {
    // The minimum cooldown (1 s): the echo of its own command arrives right after the run, and is its own.
    await createTask("trig1", { name: "hello", cooldownSeconds: 1, triggers: [{ type: "console", pattern: "hello" }], operations: [{ type: "console", command: "say hello" }] });
    // And one whose echo arrives while it still runs.
    await createTask("trig1", { name: "tick", cooldownSeconds: 1, triggers: [{ type: "console", pattern: "tick" }], operations: [{ type: "console", command: "tick again" }, { type: "sleep", seconds: 1 }] });
    // And one whose server answers 1.5 s later: past the cooldown, within the time a run's own lines are taken as its own.
    await createTask("trig1", { name: "slow", cooldownSeconds: 1, triggers: [{ type: "console", pattern: "echo of say slow" }], operations: [{ type: "console", command: "say slow" }] });
    await send("trig1", "hello");
    await send("trig1", "tick");
    await send("trig1", "say slow");
    await eventually(async () => (await consoleText("trig1")).includes("got say hello"), 3000, "the task's command");
    await eventually(async () => (await consoleText("trig1")).match(/^echo of say slow$/gm)?.length === 2, 6000, "the slow task's own echo");
    await Bun.sleep(1500);
    const text = await consoleText("trig1");
    expect(count(text, 'task "hello": started')).toBe(1);
    expect(count(text, 'task "tick": started')).toBe(1);
    expect(count(text, 'task "slow": started')).toBe(1);
    expect(count(text, "got say hello")).toBe(1);
    expect(count(text, "got tick again")).toBe(1);
  });

  test("conditions: state, time window and a variable's value decide", async () => {
    const now = new Date();
    const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
    const later = (hours: number) => hhmm(new Date(now.getTime() + hours * 3600_000));
    const cases: Array<[string, Record<string, unknown>, boolean]> = [
      ["whenstopped", { state: "stopped" }, false],
      ["whenrunning", { state: "running" }, true],
      ["outside", { between: { from: later(2), to: later(3) } }, false],
      ["inside", { between: { from: later(-1), to: later(1) } }, true],
      ["world", { variable: "greeting", equals: "world" }, true],
      ["mars", { variable: "greeting", equals: "mars" }, false],
    ];
    for (const [name, conditions] of cases) await createTask("trig1", { name, conditions, triggers: [{ type: "console", pattern: `cond-go` }], operations: [{ type: "mkdir", target: `cond-${name}` }] });
    await send("trig1", "cond-go");
    await eventually(() => cases.filter(([, , runs]) => runs).every(([name]) => existsSync(serverFile("trig1", `cond-${name}`))), 3000, "the runs whose conditions hold");
    await Bun.sleep(300);
    for (const [name, , runs] of cases) expect(existsSync(serverFile("trig1", `cond-${name}`)), name).toBe(runs);
  });

  test("a scheduled run's conditions are checked too: run now ignores them", async () => {
    const id = await createTask("trig1", { name: "manualcond", conditions: { state: "stopped" }, operations: [{ type: "mkdir", target: "manualcond" }] });
    expect((await t.call("POST", `/daemon/server/trig1/tasks/${id}/run?wait=true`)).status).toBe(200);
    expect(existsSync(serverFile("trig1", "manualcond"))).toBe(true);
  });
});

describe("lifecycle and resource triggers", () => {
  test("crash: the task runs with the cause; a stop asked for is not a crash", async () => {
    await newServer("trig2");
    await createTask("trig2", { name: "oncrash", triggers: [{ type: "crash" }], operations: [{ type: "writefile", target: "crash.txt", text: "cause ${trigger.cause}" }] });
    expect((await t.call("POST", "/daemon/server/trig2/stop?wait=true")).status).toBe(204);
    await Bun.sleep(300);
    expect(existsSync(serverFile("trig2", "crash.txt"))).toBe(false);
    expect((await t.call("POST", "/daemon/server/trig2/start?wait=true")).status).toBe(204);
    await send("trig2", "crash");
    await eventually(() => existsSync(serverFile("trig2", "crash.txt")), 5000, "the crash task");
    expect(readFileSync(serverFile("trig2", "crash.txt"), "utf8")).toMatch(/^cause \w+/);
    expect(await consoleText("trig2")).toContain('task "oncrash": started (triggered: the server crashed)');
  });

  test("state: started and stopped", async () => {
    await newServer("trig3", false);
    await createTask("trig3", { name: "onstart", triggers: [{ type: "state", state: "started" }], operations: [{ type: "console", command: "started-hook ${trigger.state}" }] });
    await createTask("trig3", { name: "onstop", triggers: [{ type: "state", state: "stopped" }], operations: [{ type: "mkdir", target: "stopped-${trigger.state}" }] });
    expect((await t.call("POST", "/daemon/server/trig3/start?wait=true")).status).toBe(204);
    await eventually(async () => (await consoleText("trig3")).includes("got started-hook started"), 3000, "the start task's command");
    expect(existsSync(serverFile("trig3", "stopped-stopped"))).toBe(false);
    expect((await t.call("POST", "/daemon/server/trig3/stop?wait=true")).status).toBe(204);
    await eventually(() => existsSync(serverFile("trig3", "stopped-stopped")), 3000, "the stop task");
  });

  test("resource: memory above a small threshold for a second runs the task once per excursion", async () => {
    await newServer("trig4");
    await createTask("trig4", { name: "mem", cooldownSeconds: 1, triggers: [{ type: "resource", metric: "memory", above: 0.01, forSeconds: 1 }], operations: [{ type: "writefile", target: "mem.txt", text: "${trigger.value}" }] });
    await eventually(() => existsSync(serverFile("trig4", "mem.txt")), 5000, "the resource task");
    expect(Number(readFileSync(serverFile("trig4", "mem.txt"), "utf8"))).toBeGreaterThan(0.01);
    // Still above: it does not fire again until the figure has gone back down.
    await Bun.sleep(2500);
    expect(count(await consoleText("trig4"), 'task "mem": started')).toBe(1);
    expect(await consoleText("trig4")).toContain('started (triggered: memory above 0.01 MiB for 1 s)');
  });
});

describe("new steps", () => {
  beforeAll(() => newServer("steps1"));

  test("waitForConsole waits for its line; without one it fails after its timeout", async () => {
    const id = await createTask("steps1", { name: "wait", operations: [{ type: "waitForConsole", pattern: "po+lo", regex: true, timeoutSeconds: 10 }, { type: "mkdir", target: "waited" }] });
    const run = t.call("POST", `/daemon/server/steps1/tasks/${id}/run?wait=true`);
    await eventually(async () => (await consoleText("steps1")).includes('task "wait": step 1/2: wait for a console line matching po+lo (at most 10 s)'), 3000, "waiting");
    expect(existsSync(serverFile("steps1", "waited"))).toBe(false);
    await send("steps1", "pooolo");
    expect((await (await run).json()).succeeded).toBe(true);
    expect(existsSync(serverFile("steps1", "waited"))).toBe(true);

    const never = await createTask("steps1", { name: "never", operations: [{ type: "waitForConsole", pattern: "never printed", timeoutSeconds: 1 }] });
    expect((await (await t.call("POST", `/daemon/server/steps1/tasks/${never}/run?wait=true`)).json()).succeeded).toBe(false);
    expect(await consoleText("steps1")).toContain('task "never": step 1/1 (waitForConsole) failed: no console line matched never printed within 1 s');
  });

  test("ifState: the rest is skipped when the state does not hold, and the run counts as ok", async () => {
    const id = await createTask("steps1", { name: "ifstopped", operations: [{ type: "ifState", state: "stopped" }, { type: "mkdir", target: "notskipped" }] });
    expect((await (await t.call("POST", `/daemon/server/steps1/tasks/${id}/run?wait=true`)).json()).succeeded).toBe(true);
    expect(existsSync(serverFile("steps1", "notskipped"))).toBe(false);
    expect(await consoleText("steps1")).toContain('task "ifstopped": step 1/2: the server is not stopped, so the steps after it are skipped');
    const ok = await createTask("steps1", { name: "ifrunning", operations: [{ type: "ifState", state: "running" }, { type: "mkdir", target: "ran" }] });
    expect((await (await t.call("POST", `/daemon/server/steps1/tasks/${ok}/run?wait=true`)).json()).succeeded).toBe(true);
    expect(existsSync(serverFile("steps1", "ran"))).toBe(true);
    expect((await t.json("GET", "/daemon/server/steps1/tasks")).tasks[id].lastRun).toMatchObject({ ok: true, how: "manual" });
  });
});

describe("rights", () => {
  test("a triggered run asks the panel's check, every time; a refusal is on the console and nothing runs", async () => {
    await newServer("trig5");
    checked.length = 0;
    refusal = "owner@example.com no longer may: a console trigger needs the viewServerConsole permission";
    const id = await createTask("trig5", { name: "owned", owner: 12, cooldownSeconds: 1, triggers: [{ type: "console", pattern: "go-owned" }], operations: [{ type: "mkdir", target: "owned" }] });
    await send("trig5", "go-owned");
    await eventually(async () => (await consoleText("trig5")).includes(`task "owned": not run: ${refusal}`), 3000, "refusal line");
    expect(checked.map((c) => [c.serverId, c.task.owner, c.task.triggers?.map((tr) => tr.type)])).toEqual([["trig5", 12, ["console"]]]);
    expect(existsSync(serverFile("trig5", "owned"))).toBe(false);
    // Allowed again: the next firing asks again (nothing of the refusal, or of an allowance, is kept).
    refusal = null;
    await Bun.sleep(OWN_LINES_MS + 200);
    await send("trig5", "go-owned");
    await eventually(() => existsSync(serverFile("trig5", "owned")), 3000, "allowed run");
    expect(checked.length).toBe(2);
    expect((await t.json("GET", "/daemon/server/trig5/tasks")).tasks[id].lastRun).toMatchObject({ ok: true, how: "triggered" });
    expect(await running("trig5")).toBe(true);
  });

  test("deleting the task disarms its triggers", async () => {
    const id = await createTask("trig5", { name: "gone", triggers: [{ type: "console", pattern: "go-gone" }], operations: [{ type: "mkdir", target: "gone" }] });
    expect((await t.call("DELETE", `/daemon/server/trig5/tasks/${id}`)).status).toBe(204);
    await send("trig5", "go-gone");
    await Bun.sleep(500);
    expect(existsSync(serverFile("trig5", "gone"))).toBe(false);
  });
});
