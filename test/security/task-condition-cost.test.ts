// Attack: a step condition (`if`, CEL) that costs the node its event loop. A user holding only
// editServerData and putServerFiles saves a writefile step whose condition nests comprehensions
// ([0,…,9].all(x, …) eight deep: 250 characters, 10^8 iterations), builds gigabytes with nested
// or chained .map or with joins, or runs a backtracking regular expression, then runs the task:
// cel-js evaluated it on the node's thread with no budget, freezing every server of the node. Now its cost is bounded from
// the expression: refused when saved (naming the field), and refused unevaluated when a task stored
// before the bound runs.
import { longestStall } from "../helpers/thread-stall";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_CONDITION_LENGTH } from "../../core/definition/conditions";
import type { TestNode } from "../helpers/node";
import { jsonInit, userWithFlags, type PanelWithNode } from "../helpers/panel-node";
import { taskCheckingPanel, type TaskCheckingPanel } from "../helpers/task-checking-panel";

let rig: TaskCheckingPanel;
let ctx: PanelWithNode;
let node: TestNode;
let id = "";
let token = "";

beforeAll(async () => {
  rig = await taskCheckingPanel();
  ({ ctx, node } = rig);
  id = await ctx.createServer("condition cost");
  ({ token } = await userWithFlags(ctx, id, ["editServerData", "putServerFiles"]));
});
afterAll(() => rig.stop());

const TEN = "[0,1,2,3,4,5,6,7,8,9]";
const nested = (depth: number, macro: string, body: string) => {
  let expression = body;
  for (let i = 0; i < depth; i++) expression = `${TEN}.${macro}(x${i}, ${expression})`;
  return expression;
};
const step = (condition: string, target = "x.txt") => ({ type: "writefile", target, text: "x", if: condition });
const save = (operations: unknown[], name = "t") => ctx.panel.request(`/proxy/daemon/server/${id}/tasks`, { token, ...jsonInit("POST", { name, cronSchedule: null, operations }) });
const stored = async () => ((await node.json("GET", `/daemon/server/${id}/tasks`)) as { tasks: Record<string, unknown> }).tasks;
const consoleText = async () => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

/** Each would run for minutes or fill the node's memory; each typechecks and is within the parse limits. */
const COSTLY: Record<string, string> = {
  "nested all (10^8 iterations)": nested(8, "all", "true"),
  "nested map (gigabytes of lists)": `${nested(6, "map", "serverId + serverId + serverId + serverId")}.size() == 0`,
  "chained map, each doubling (10^9 elements)": `${TEN}.map(a, ${TEN})${".map(y, y + y)".repeat(24)}.size() > 0`,
  "joins, each repeating its separator (hundreds of MB)": `${Array.from({ length: 8 }).reduce<string>((inner) => `${TEN}.map(a, serverId).join(${inner})`, "serverId")}.size() > 0`,
  "a backtracking regular expression (2^40 steps)": `'${"a".repeat(40)}!'.matches('^(a|a)*$')`,
};

describe("saving: a condition that could cost too much is refused, naming the field", () => {
  for (const [what, condition] of Object.entries(COSTLY)) {
    test(what, async () => {
      const before = await stored();
      const response = await save([{ type: "sleep", seconds: 1 }, step(condition)]);
      expect(response.status).toBe(400);
      const { error } = await response.json();
      expect(error.code).toBe("ErrTemplateFieldInvalid");
      expect(error.metadata.field).toBe("operations.1.if");
      expect(await stored()).toEqual(before);
    });
  }

  test("a condition over the length bound is refused by its length", async () => {
    const response = await save([step(`serverId != '${"a".repeat(MAX_CONDITION_LENGTH)}'`)]);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "operations.0.if", max: MAX_CONDITION_LENGTH } });
  });

  test("a condition of ordinary cost still saves and runs", async () => {
    const response = await save([step(`${TEN}.exists(x, x == 7) && ${TEN}.all(x, ${TEN}.exists(y, x + y >= 0)) && !file_exists('ran.txt')`, "ran.txt")], "ordinary");
    expect(response.status).toBe(201);
    const { id: taskId } = await response.json();
    expect(await node.json("POST", `/daemon/server/${id}/tasks/${taskId}/run?wait=true`)).toEqual({ succeeded: true });
    expect(readFileSync(node.folder(id, "ran.txt"), "utf8")).toBe("x");
  });
});

describe("running: a task stored before the bound is refused unevaluated, the node kept answering", () => {
  test("the step fails at once and writes nothing", async () => {
    // As a node of an older version stored it: straight into its task file.
    const file = join(node.config.dataDir, "tasks", `${id}.json`);
    mkdirSync(join(node.config.dataDir, "tasks"), { recursive: true });
    const tasks = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
    writeFileSync(file, JSON.stringify({ ...tasks, old00000: { name: "burn", cronSchedule: null, operations: [step(nested(9, "all", "true"), "burnt.txt")] } }));
    let answer: unknown;
    const stall = await longestStall(async () => (answer = await node.json("POST", `/daemon/server/${id}/tasks/old00000/run?wait=true`)));
    // Refused before any of its 10^9 iterations: no second-long stall (evaluated, it held the loop for a minute).
    expect(stall).toBeLessThan(1500);
    expect(answer).toEqual({ succeeded: false });
    expect(await consoleText()).toContain("cost too much");
    expect(existsSync(node.folder(id, "burnt.txt"))).toBe(false);
  }, 300_000);
});
