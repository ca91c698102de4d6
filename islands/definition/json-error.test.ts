import { describe, expect, test } from "bun:test";
import { locateJsonError } from "./json-error";

describe("locateJsonError", () => {
  test("valid JSON has no error place", () => {
    for (const text of ['{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]}', "[]", " 12 ", '"s"', '{\n  "a": {}\n}\n']) {
      expect(locateJsonError(text), text).toBeNull();
      expect(() => JSON.parse(text)).not.toThrow();
    }
  });

  test("points at the first character that cannot be there, by line and column", () => {
    const cases: [string, number, number][] = [
      ['{\n  "a": 1,\n  "b" 2\n}', 3, 7],
      ['{\n  "a": 1,\n}', 3, 1],
      ["[1, 2", 1, 6],
      ["", 1, 1],
      ['{"a": tru}', 1, 10],
      ['{"a": "x\\q"}', 1, 10],
      ["{'a': 1}", 1, 2],
      ["[1] x", 1, 5],
      ['{"a": 01}', 1, 8],
    ];
    for (const [text, line, column] of cases) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(locateJsonError(text), text).toMatchObject({ line, column });
    }
  });

  test("a text cut short points at its end", () => {
    const text = '{"display": "Half';
    expect(locateJsonError(text)).toEqual({ offset: text.length, line: 1, column: text.length + 1 });
  });
});
