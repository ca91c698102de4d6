// Counting a JSON list's entries without parsing it: exact for any valid list (strings holding
// brackets, commas, quotes and escapes; nested objects and lists), and stopping just past the cap.
import { describe, expect, test } from "bun:test";
import { countListEntries } from "./count-entries";

const exact = (value: unknown[], indent?: number) => expect(countListEntries(JSON.stringify(value, null, indent), Infinity)).toBe(value.length);

describe("countListEntries", () => {
  test("an empty list, whitespace and Minecraft's indented files", () => {
    expect(countListEntries("[]", 10)).toBe(0);
    expect(countListEntries(" [ \n ] ", 10)).toBe(0);
    exact([{ uuid: "1", name: "Alex" }, { uuid: "2", name: "Steve", level: 4 }], 2);
  });

  test("strings and nesting do not fool it", () => {
    exact([{ reason: 'a, "b" ], [ {c} \\', note: ["x", { y: [1, 2, 3] }] }, { name: "\\\\" }, { name: "\u2028,]" }]);
    exact(["a,b", 1, null, true, [1, [2, [3]]], {}]);
  });

  test("any list JSON.stringify writes is counted as JSON.parse reads it", () => {
    const pieces = ["", ",", "[", "]", "{", "}", '"', "\\", ":", " ", "\n", "é"];
    for (let round = 0; round < 200; round++) {
      const list = Array.from({ length: round % 17 }, (_, i) => ({ name: Array.from({ length: (round * 7 + i) % 9 }, (_, j) => pieces[(round + i * 3 + j) % pieces.length]).join(""), n: [i, { i }] }));
      exact(list, round % 2 ? 2 : undefined);
    }
  });

  test("it stops once past the cap", () => {
    const text = `[${'{"name":"a"},'.repeat(1000).slice(0, -1)}]`;
    expect(countListEntries(text, 10)).toBe(11);
    expect(countListEntries(text, 1000)).toBe(1000);
  });
});
