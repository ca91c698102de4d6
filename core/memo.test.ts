import { expect, test } from "bun:test";
import { memoByText } from "./memo";

test("each distinct text is worked out once; past the bound all are forgotten and worked out again", () => {
  const asked: string[] = [];
  const upper = memoByText((text) => (asked.push(text), text.toUpperCase()), 2);
  expect([upper("a"), upper("a"), upper("b"), upper("a")]).toEqual(["A", "A", "B", "A"]);
  expect(asked).toEqual(["a", "b"]);
  expect(upper("c")).toBe("C");
  expect(upper("a")).toBe("A");
  expect(asked).toEqual(["a", "b", "c", "a"]);
});

test("an undefined answer is remembered too", () => {
  let calls = 0;
  const nothing = memoByText(() => void calls++);
  nothing("x");
  nothing("x");
  expect(calls).toBe(1);
});
