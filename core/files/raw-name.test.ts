import { expect, test } from "bun:test";
import { canonicalName, nameFromBytes } from "./raw-name";

test("canonicalName: every spelling of one file's bytes is one name", () => {
  expect(canonicalName("plain.txt")).toBe("plain.txt");
  // Escapes of bytes that are UTF-8 text are that text.
  expect(canonicalName("\uEFC3\uEFA9t\uEFC3\uEFA9.cfg")).toBe("été.cfg");
  // A byte that is not UTF-8 stays its escape.
  expect(canonicalName(nameFromBytes(new Uint8Array([0x78, 0x80])))).toBe("x\uEF80");
  // A lone surrogate is written as U+FFFD's bytes, so it is that name.
  expect(canonicalName("x\uD800")).toBe("x\uFFFD");
  expect(canonicalName("x\uDC00y")).toBe("x\uFFFDy");
});
