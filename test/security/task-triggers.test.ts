// Attack: task triggers as a way to hold the node, to do more than one may by hand, or to type a
// second command into a server's console. Patterns built to backtrack catastrophically, patterns
// too long or that RE2 refuses, too many triggers; triggers and steps saved by users without the
// rights they need, and a right taken away after saving (the node asks the panel over HTTP before
// each triggered run, as a remote node would); a captured group holding a carriage return that a
// terminal would read as Enter, or a ';' that a Source console reads between two commands.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { lineMatcher, plainValue } from "../../daemon/tasks/triggers";
import { OWN_LINES_MS } from "../../daemon/tasks/scheduler";
import { MAX_TRIGGER_LINE, MAX_TRIGGER_PATTERN, MAX_TRIGGERS } from "../../core/tasks/constants";
import type { ServerFlag } from "../../core/scopes";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { grantFlags, jsonInit, userWithFlags, type PanelWithNode } from "../helpers/panel-node";
import { taskCheckingPanel, type TaskCheckingPanel } from "../helpers/task-checking-panel";

let rig: TaskCheckingPanel;
let node: TestNode;
let ctx: PanelWithNode;
let id = "";

beforeAll(async () => {
  rig = await taskCheckingPanel({ stopTimeoutMs: 2000 });
  ({ node, ctx } = rig);
  id = await ctx.createServer("trigger attacks");
  expect((await node.call("POST", `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
});
afterAll(() => rig.stop());

const setFlags = (email: string, flags: ServerFlag[]) => grantFlags(ctx, id, email, flags);
const userWith = (flags: ServerFlag[]) => userWithFlags(ctx, id, flags);
const tasksUrl = () => `/proxy/daemon/server/${id}/tasks`;
const save = (token: string, body: Record<string, unknown>) => ctx.panel.request(tasksUrl(), { token, ...jsonInit("POST", { name: "t", cronSchedule: null, operations: [], ...body }) });
const stored = async () => (await node.json("GET", `/daemon/server/${id}/tasks`)).tasks as Record<string, unknown>;
const consoleText = async (serverId = id) => ((await node.json("GET", `/daemon/server/${serverId}/console`)).logs as string[]).join("");
const send = async (command: string, serverId = id) => expect((await node.call("POST", `/daemon/server/${serverId}/console`, command)).status).toBe(204);
async function expectError(response: Response, code: string, metadata?: Record<string, unknown>): Promise<void> {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const body = await response.json();
  expect(body.error.code).toBe(code);
  if (metadata) expect(body.error.metadata).toMatchObject(metadata);
}
const timed = async <T>(run: () => Promise<T> | T): Promise<[T, number]> => {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
};

describe("patterns cannot hold the node", () => {
  test("(a+)+$ against a line of a's ending in b: milliseconds, not minutes (JavaScript's engine: exponential)", async () => {
    const line = `${"a".repeat(MAX_TRIGGER_LINE - 1)}b`;
    const match = lineMatcher({ pattern: "(a+)+$", regex: true });
    match("warm-up");
    const [result, ms] = await timed(() => match(line));
    expect(result).toBeNull();
    expect(ms).toBeLessThan(100);
    for (const pattern of ["^(a|a)*$", "(\\w+\\s?)*$", "(x+x+)+y", "^(([a-z])+.)+[A-Z]([a-z])+$"]) {
      const [, took] = await timed(() => lineMatcher({ pattern, regex: true })(line));
      expect(took, pattern).toBeLessThan(250);
    }
  });

  test("armed on a running server fed such lines, and longer ones, the node keeps answering at once", async () => {
    const response = await save(ctx.admin.token, { name: "redos", triggers: [{ type: "console", pattern: "(a+)+$", regex: true }, { type: "console", pattern: "^(a|a)*$", regex: true }], operations: [{ type: "mkdir", target: "redos" }] });
    expect(response.status).toBe(201);
    // 40 lines of a's and a b as long as a line is looked at ("got " before them), and one of 200 000 characters (only its start is looked at).
    for (let i = 0; i < 40; i++) await send(`${"a".repeat(MAX_TRIGGER_LINE - 5)}b`);
    await send("ab".repeat(100_000));
    const [status, ms] = await timed(() => node.call("GET", `/daemon/server/${id}/status`));
    expect(status.status).toBe(200);
    expect(ms).toBeLessThan(500);
    await eventually(async () => (await consoleText()).includes(`got ${"a".repeat(100)}`), 5000, "the lines");
    expect(existsSync(node.folder(id, "redos"))).toBe(false);
  });

  test("patterns RE2 cannot run, or too long, are refused with ErrTaskTriggerInvalid naming the field", async () => {
    const before = await stored();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ triggers: [{ type: "console", pattern: "(a)\\1", regex: true }] }, "triggers.0.pattern"],
      [{ triggers: [{ type: "crash" }, { type: "console", pattern: "(?=admin)a", regex: true }] }, "triggers.1.pattern"],
      [{ triggers: [{ type: "console", pattern: "(.*a){250}", regex: true }] }, "triggers.0.pattern"],
      [{ triggers: [{ type: "console", pattern: "a".repeat(MAX_TRIGGER_PATTERN + 1) }] }, "triggers.0.pattern"],
      [{ triggers: [{ type: "console", pattern: "x", regex: true }], operations: [{ type: "waitForConsole", pattern: "(b)\\1", regex: true, timeoutSeconds: 5 }] }, "operations.0.pattern"],
      [{ operations: [{ type: "waitForConsole", pattern: "b".repeat(MAX_TRIGGER_PATTERN + 1), timeoutSeconds: 5 }] }, "operations.0.pattern"],
    ];
    for (const [body, field] of cases) await expectError(await save(ctx.admin.token, body), "ErrTaskTriggerInvalid", { field });
    const refused = await save(ctx.admin.token, { triggers: [{ type: "console", pattern: "(a)\\1", regex: true }] });
    expect((await refused.json()).error.metadata.reason).toBe("back-references are not supported (RE2 syntax)");
    expect(await stored()).toEqual(before);
  });

  test("a huge number of triggers is refused whole, quickly", async () => {
    const before = await stored();
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ type: "console", pattern: `p${i}` }));
    await expectError(await save(ctx.admin.token, { triggers: many(MAX_TRIGGERS + 1) }), "ErrTaskTriggerInvalid", { field: "triggers" });
    const [response, ms] = await timed(() => save(ctx.admin.token, { triggers: many(20_000) }));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(ms).toBeLessThan(2000);
    // Straight to the node too: the node checks the same schema.
    const direct = await node.call("POST", `/daemon/server/${id}/tasks`, { name: "t", triggers: many(MAX_TRIGGERS + 1) });
    await expectError(direct, "ErrTaskTriggerInvalid", { field: "triggers" });
    expect(await stored()).toEqual(before);
  });
});

describe("a trigger does not widen what a task may do", () => {
  test("a console trigger needs viewServerConsole, a resource or player trigger viewServerStats, a waitForConsole step viewServerConsole", async () => {
    const user = await userWith(["editServerData", "sendServerConsole", "putServerFiles"]);
    const before = await stored();
    await expectError(await save(user.token, { triggers: [{ type: "console", pattern: "(.*)", regex: true }], operations: [{ type: "writefile", target: "leak.txt", text: "${trigger.1}" }] }), "ErrNoPermission", { permission: "viewServerConsole" });
    await expectError(await save(user.token, { operations: [{ type: "waitForConsole", pattern: "x", timeoutSeconds: 5 }] }), "ErrNoPermission", { permission: "viewServerConsole" });
    await expectError(await save(user.token, { triggers: [{ type: "resource", metric: "cpu", above: 50, forSeconds: 5 }] }), "ErrNoPermission", { permission: "viewServerStats" });
    await expectError(await save(user.token, { triggers: [{ type: "player", on: "join" }] }), "ErrNoPermission", { permission: "viewServerStats" });
    // Crash and state triggers watch what anyone with the server sees.
    expect((await save(user.token, { triggers: [{ type: "crash" }, { type: "state", state: "started" }], operations: [{ type: "mkdir", target: "x" }] })).status).toBe(201);
    expect(Object.keys(await stored()).length).toBe(Object.keys(before).length + 1);
  });

  test("a user who may watch the console but not type in it cannot have a trigger type for them", async () => {
    const user = await userWith(["editServerData", "viewServerConsole"]);
    await expectError(await save(user.token, { triggers: [{ type: "console", pattern: "joined" }], operations: [{ type: "console", command: "op ${trigger.line}" }] }), "ErrNoPermission", { permission: "sendServerConsole" });
    await expectError(await save(user.token, { triggers: [{ type: "console", pattern: "joined" }], operations: [{ type: "start" }] }), "ErrNoPermission", { permission: "startServer" });
  });

  test("a variable condition may only name a variable the author may see", async () => {
    const user = await userWith(["editServerData", "viewServerConsole", "putServerFiles"]);
    // The panel's echo template has port with userEdit false: a hidden value a condition could guess digit by digit.
    await expectError(await save(user.token, { conditions: { variable: "port", equals: "25565" }, triggers: [{ type: "crash" }], operations: [{ type: "mkdir", target: "guess" }] }), "ErrNoPermission", { field: "port" });
    expect((await save(user.token, { conditions: { variable: "greeting", equals: "world" }, triggers: [{ type: "crash" }], operations: [{ type: "mkdir", target: "ok" }] })).status).toBe(201);
  });

  test("a right taken away after saving stops every triggered run; given back, the next firing runs", async () => {
    const user = await userWith(["editServerData", "viewServerConsole", "putServerFiles"]);
    const response = await save(user.token, { name: "revoked", cooldownSeconds: 1, triggers: [{ type: "console", pattern: "go-revoked" }], operations: [{ type: "mkdir", target: "revoked" }] });
    expect(response.status).toBe(201);
    await setFlags(user.email, ["editServerData", "putServerFiles"]);
    await send("go-revoked");
    await eventually(async () => (await consoleText()).includes('task "revoked": not run:'), 5000, "the refused run");
    expect(await consoleText()).toContain("viewServerConsole");
    expect(existsSync(node.folder(id, "revoked"))).toBe(false);
    await setFlags(user.email, ["editServerData", "viewServerConsole", "putServerFiles"]);
    // Past the cooldown and the time a run's own lines count as its own (OWN_LINES_MS).
    await Bun.sleep(OWN_LINES_MS + 200);
    await send("go-revoked");
    await eventually(() => existsSync(node.folder(id, "revoked")), 5000, "the run allowed again");
  });
});

describe("a captured value is text, never a second command", () => {
  /**
   * A server running `shell` (it echoes each command it reads as "got …", ends on "quit", and on
   * "inject" prints a line the trigger `pattern` captures), with a task sending `command` when that
   * line comes: after "inject" is typed, the console shows `sent` and never `second`, and the server runs on.
   */
  async function oneCommand(shell: string, environment: { type: "standard" | "tty" }, pattern: string, command: string, sent: string, second: string): Promise<void> {
    const other = await startTestNode({ stopTimeoutMs: 2000 });
    try {
      expect((await other.call("PUT", "/daemon/server/s1", echoTemplate({ command: shell }, environment))).status).toBe(201);
      expect((await other.call("POST", "/daemon/server/s1/start?wait=true")).status).toBe(204);
      const created = await other.call("POST", "/daemon/server/s1/tasks", { name: "greet", cronSchedule: null, triggers: [{ type: "console", pattern, regex: true }], operations: [{ type: "console", command }] });
      expect(created.status).toBe(201);
      expect((await other.call("POST", "/daemon/server/s1/console", "inject")).status).toBe(204);
      const text = async () => ((await other.json("GET", "/daemon/server/s1/console")).logs as string[]).join("");
      await eventually(async () => (await text()).includes(sent), 5000, "the task's command");
      await Bun.sleep(300);
      expect(await text()).not.toContain(second);
      expect((await other.json("GET", "/daemon/server/s1/status")).running).toBe(true);
    } finally {
      await other.stop();
    }
  }

  test("a value holding ';', on a console that reads ';' between commands (Source's), reaches the server as one command", async () => {
    // Each line is split on ';' into commands, as a Source engine console does; "inject" makes the game print a player named "x;quit".
    const shell = `sh -c 'echo up; while read l; do IFS=";"; set -- $l; IFS=" "; for c in "$@"; do echo "got [$c]"; [ "$c" = quit ] && exit 0; done; [ "$l" = inject ] && echo "joined: x;quit"; done'`;
    await oneCommand(shell, { type: "standard" }, "^joined: (.*)$", "say Welcome ${trigger.1}", "got [say Welcome xquit]", "got [quit]");
  });

  test("control characters are removed from every value a trigger gives", () => {
    const values = lineMatcher({ pattern: "name: (.*)", regex: true })("name: evil\rquit\u2028op me\u0000\u001b[2J\u0085x")!;
    for (const value of Object.values(values)) expect(value).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(values["trigger.1"]).toBe("evilquitop me[2Jx");
    expect(plainValue("a\nb")).toBe("ab");
  });

  test("a group holding a carriage return, on a terminal console that reads CR as Enter, reaches the server as one command", async () => {
    const shell = "sh -c 'echo up; while read l; do echo \"got $l\"; [ \"$l\" = quit ] && exit 0; [ \"$l\" = inject ] && printf \"name: evil\\rquit\\n\"; done'";
    await oneCommand(shell, { type: "tty" }, "^name: (.*)$", "say ${trigger.1}", "got say evilquit", "got quit");
  });
});
