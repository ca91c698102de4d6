import { describe, expect, test } from "bun:test";
import { normalizeEmail } from "./email";

describe("normalizeEmail", () => {
  test("white space, case and compatibility forms give one spelling", () => {
    for (const spelling of [" name@x.io", "name@x.io ", "\tname@x.io", "\nname@x.io\r\n", "NAME@X.IO", "ｎａｍｅ＠ｘ．ｉｏ", "\u3000name@x.io\u00a0"]) {
      expect(normalizeEmail(spelling)).toBe("name@x.io");
    }
  });

  test("is idempotent", () => {
    for (const spelling of ["İSTANBUL@x.io", "ǅ@x.io", "ﬁ@x.io"]) expect(normalizeEmail(normalizeEmail(spelling))).toBe(normalizeEmail(spelling));
  });
});
