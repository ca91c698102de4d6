// A task's triggers, cooldown and conditions as the panel and the node read them: old and
// PufferPanel-shaped bodies stay as they were, faults are ErrTaskTriggerInvalid naming the field.
import { describe, expect, test } from "bun:test";
import { KilnError } from "../errors";
import { MIN_COOLDOWN_SECONDS } from "./constants";
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
