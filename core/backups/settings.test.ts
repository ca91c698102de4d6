import { expect, test } from "bun:test";
import { KilnError } from "../errors";
import { MAX_GLOBSTARS, collapseGlobstars, parseIgnore } from "./settings";

const refusal = (text: string) => {
  try {
    parseIgnore(text);
    return null;
  } catch (error) {
    return error instanceof KilnError ? { code: error.code, metadata: error.metadata } : error;
  }
};

test("runs of ** segments are stored as one: they match the same paths", () => {
  expect(parseIgnore("**/**/cache\nlogs/**/**\n/a/**/**/b\nplain")).toEqual(["**/cache", "logs/**", "/a/**/b", "plain"]);
  expect(collapseGlobstars("a**/**/b")).toBe("a**/**/b");
});

test(`a pattern with more than ${MAX_GLOBSTARS} ** is refused, naming the field; one after another too`, () => {
  const expected = { code: "ErrFieldTooLarge", metadata: { field: "ignore", max: MAX_GLOBSTARS } };
  expect(refusal("**/a/**/b/**/c")).toEqual(expected);
  expect(refusal(`${"**/".repeat(30)}x`)).toEqual(expected);
  expect(refusal("ok\na**b**c**")).toEqual(expected);
  expect(refusal("**/a/**/b")).toBeNull();
});

test("patterns stay bounded in number and length", () => {
  expect(refusal(Array.from({ length: 101 }, (_, i) => `f${i}`).join("\n"))).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "ignore", max: 100 } });
  expect(refusal("x".repeat(257))).toMatchObject({ code: "ErrFieldTooLarge", metadata: { field: "ignore", max: 256 } });
});
