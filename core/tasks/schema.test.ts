// A task's triggers, cooldown and conditions as the panel and the node read them: old and
// PufferPanel-shaped bodies stay as they were, faults are ErrTaskTriggerInvalid naming the field.
import { describe, expect, test } from "bun:test";
import { KilnError } from "../errors";
import { MAX_CONDITION_LENGTH } from "../definition/conditions";
import { MAX_OPERATIONS, MAX_STEP_CONTENT, MAX_STEP_LIST, MAX_STEP_TEXT, MIN_COOLDOWN_SECONDS } from "./constants";
import { parseTask } from "./schema";

const fault = (raw: unknown): { code: string; metadata: unknown } => {
  try {
    parseTask(raw);
  } catch (error) {
    if (error instanceof KilnError) return { code: error.code, metadata: error.metadata };
    throw error;
  }
  throw new Error("accepted");
};

describe("task triggers", () => {
  test("a task without triggers parses as before: no new fields appear", () => {
    expect(parseTask({ name: "n", cronSchedule: "0 3 * * *", operations: [{ type: "console", command: "save-all" }] })).toEqual({ name: "n", cronSchedule: "0 3 * * *", operations: [{ type: "console", command: "save-all" }] });
    // An empty list, and a cooldown with no trigger to cool, are left out; so are empty conditions.
    expect(parseTask({ name: "n", cronSchedule: null, triggers: [], cooldownSeconds: 30, conditions: {} })).toEqual({ name: "n", cronSchedule: null, operations: [] });
    // PufferPanel's shape (its own fields beside ours are not kept).
    expect(parseTask({ name: "backup", cronSchedule: "*/5 * * * *", description: "x", operations: [{ type: "command", commands: "echo hi" }] })).toEqual({ name: "backup", cronSchedule: "*/5 * * * *", operations: [{ type: "command", commands: ["echo hi"] }] });
  });

  test("each trigger type, the cooldown and the conditions", () => {
    const task = parseTask({
      name: "n",
      cronSchedule: null,
      triggers: [
        { type: "console", pattern: "joined" },
        { type: "console", pattern: "(\\w+) joined", regex: true },
        { type: "crash" },
        { type: "state", state: "installed" },
        { type: "resource", metric: "cpu", above: "90.5", forSeconds: 30 },
        { type: "player", on: "leave" },
      ],
      cooldownSeconds: 5,
      conditions: { state: "running", between: { from: "22:00", to: "06:00" }, variable: "mode", equals: "pvp" },
    });
    expect(task.triggers).toEqual([
      { type: "console", pattern: "joined", regex: false },
      { type: "console", pattern: "(\\w+) joined", regex: true },
      { type: "crash" },
      { type: "state", state: "installed" },
      { type: "resource", metric: "cpu", above: 90.5, forSeconds: 30 },
      { type: "player", on: "leave" },
    ]);
    expect(task.cooldownSeconds).toBe(5);
    expect(task.conditions).toEqual({ state: "running", between: { from: "22:00", to: "06:00" }, variable: "mode", equals: "pvp" });
  });

  test("faults name the field", () => {
    const triggers = [{ type: "crash" }];
    expect(fault({ name: "n", triggers: [{ type: "webhook" }] })).toMatchObject({ code: "ErrTaskTriggerInvalid", metadata: { field: "triggers.0.type", reason: "expected a trigger: console, crash, state, resource or player" } });
    expect(fault({ name: "n", triggers: [{ type: "state", state: "crashed" }] })).toMatchObject({ code: "ErrTaskTriggerInvalid", metadata: { field: "triggers.0.state" } });
    expect(fault({ name: "n", triggers: [{ type: "resource", metric: "cpu", above: -1, forSeconds: 0 }] })).toMatchObject({ metadata: { field: "triggers.0.above" } });
    expect(fault({ name: "n", triggers: [{ type: "console", pattern: "" }] })).toMatchObject({ metadata: { field: "triggers.0.pattern" } });
    expect(fault({ name: "n", triggers, cooldownSeconds: MIN_COOLDOWN_SECONDS - 1 })).toMatchObject({ code: "ErrTaskTriggerInvalid", metadata: { field: "cooldownSeconds" } });
    expect(fault({ name: "n", triggers, conditions: { between: { from: "24:00", to: "01:00" } } })).toMatchObject({ metadata: { field: "conditions.between.from" } });
    expect(fault({ name: "n", triggers, conditions: { between: { from: "01:00", to: "01:00" } } })).toMatchObject({ metadata: { field: "conditions.between.to" } });
    expect(fault({ name: "n", triggers, conditions: { variable: "mode" } })).toMatchObject({ metadata: { field: "conditions.variable" } });
    expect(fault({ name: "n", operations: [{ type: "waitForConsole", pattern: "x", timeoutSeconds: 0 }] })).toMatchObject({ code: "ErrInvalidJson", metadata: { field: "operations.0.timeoutSeconds" } });
    expect(fault({ name: "n", operations: [{ type: "ifState", state: "crashed" }] })).toMatchObject({ code: "ErrInvalidJson", metadata: { field: "operations.0.state" } });
  });
});

describe("what an operation may hold", () => {
  const writefile = (extra: Record<string, unknown>) => ({ name: "n", operations: [{ type: "sleep", seconds: 1 }, { type: "writefile", target: "a.txt", text: "x", ...extra }] });

  test("only its type's fields: another is refused, named, never kept nor dropped", () => {
    expect(fault(writefile({ payload: "x" }))).toMatchObject({ code: "ErrUnknownField", metadata: { field: "operations.1.payload" } });
    expect(fault({ name: "n", operations: [{ type: "console", command: "say", if: "true" }] })).toMatchObject({ code: "ErrUnknownField", metadata: { field: "operations.0.if" } });
    expect(parseTask(writefile({ if: "env == 'host'" })).operations[1]).toEqual({ type: "writefile", target: "a.txt", text: "x", if: "env == 'host'" });
  });

  test("texts and lists are bounded, a file's content more than the rest", () => {
    expect(parseTask(writefile({ text: "x".repeat(MAX_STEP_CONTENT) })).operations).toHaveLength(2);
    expect(fault(writefile({ text: "x".repeat(MAX_STEP_CONTENT + 1) }))).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "operations.1.text", max: MAX_STEP_CONTENT } });
    expect(fault(writefile({ target: "x".repeat(MAX_STEP_TEXT + 1) }))).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "operations.1.target", max: MAX_STEP_TEXT } });
    expect(fault({ name: "n", operations: [{ type: "command", commands: ["a", "x".repeat(MAX_STEP_TEXT + 1)] }] })).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "operations.0.commands.1" } });
    expect(fault({ name: "n", operations: [{ type: "command", commands: Array(MAX_STEP_LIST + 1).fill("a") }] })).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "operations.0.commands", max: MAX_STEP_LIST } });
    expect(fault({ name: "n", operations: Array(MAX_OPERATIONS + 1).fill({ type: "start" }) })).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "operations", max: MAX_OPERATIONS } });
  });

  test("a step's condition: at most its length, readable by CEL, of bounded cost", () => {
    expect(fault(writefile({ if: `env == '${"x".repeat(MAX_CONDITION_LENGTH)}'` }))).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "operations.1.if", max: MAX_CONDITION_LENGTH } });
    expect(fault(writefile({ if: "env ==" }))).toMatchObject({ code: "ErrTemplateFieldInvalid", metadata: { field: "operations.1.if" } });
    const nested = "[0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, true)))))";
    expect(fault(writefile({ if: nested }))).toMatchObject({ code: "ErrTemplateFieldInvalid", metadata: { field: "operations.1.if" } });
    expect(String((fault(writefile({ if: nested })).metadata as { expected: string }).expected)).toContain("cost too much");
  });
});
