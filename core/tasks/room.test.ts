// A server's tasks bounded in number and size: a save that adds past them or grows them past the
// size is refused; tasks stored before the bounds stay, and may be edited down.
import { describe, expect, test } from "bun:test";
import { KilnError } from "../errors";
import { MAX_SERVER_TASKS_BYTES, MAX_TASKS_PER_SERVER } from "./constants";
import { assertRoomFor } from "./room";

const tasks = (count: number, text = "") => Object.fromEntries(Array.from({ length: count }, (_, i) => [`t${i}`, { name: `t${i}`, text }]));
const refusal = (before: Record<string, unknown>, after: Record<string, unknown>) => {
  try {
    assertRoomFor(before, after);
  } catch (error) {
    if (error instanceof KilnError) return { code: error.code, metadata: error.metadata };
    throw error;
  }
  return undefined;
};

describe("a server's tasks", () => {
  test(`at most ${MAX_TASKS_PER_SERVER}`, () => {
    expect(refusal(tasks(MAX_TASKS_PER_SERVER - 1), tasks(MAX_TASKS_PER_SERVER))).toBeUndefined();
    expect(refusal(tasks(MAX_TASKS_PER_SERVER), tasks(MAX_TASKS_PER_SERVER + 1))).toEqual({ code: "ErrFieldTooLarge", metadata: { field: "tasks", max: MAX_TASKS_PER_SERVER } });
  });

  test(`at most ${MAX_SERVER_TASKS_BYTES} bytes of JSON together`, () => {
    const half = "x".repeat(MAX_SERVER_TASKS_BYTES / 2);
    expect(refusal(tasks(1, half), tasks(2, half))).toEqual({ code: "ErrFieldTooLarge", metadata: { field: "tasks", max: MAX_SERVER_TASKS_BYTES } });
    // Multi-byte characters count as their UTF-8 bytes.
    expect(refusal({}, tasks(1, "é".repeat(MAX_SERVER_TASKS_BYTES / 2 + 10)))).toMatchObject({ code: "ErrFieldTooLarge" });
  });

  test("stored past the bounds before they existed: kept, and a save that does not grow them passes", () => {
    const over = tasks(MAX_TASKS_PER_SERVER + 5, "x".repeat(20_000));
    expect(refusal(over, { ...over, t0: { name: "t0", text: "" } })).toBeUndefined();
    expect(refusal(over, { ...over, extra: { name: "extra", text: "" } })).toMatchObject({ code: "ErrFieldTooLarge" });
  });
});
