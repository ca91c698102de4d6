// restic's tree objects write a name as Go's strconv.Quote does, without the quotes: read back, its bytes are exact.
import { expect, test } from "bun:test";
import { quotedBytes } from "./snapshot-tree";

test("each escape Go writes gives back its bytes; anything else is taken as it is", () => {
  const hex = (quoted: string) => Buffer.from(quotedBytes(quoted)).toString("hex");
  expect(hex("old\\xe9.dat")).toBe(Buffer.from([0x6f, 0x6c, 0x64, 0xe9, 0x2e, 0x64, 0x61, 0x74]).toString("hex"));
  expect(hex("line\\nbreak\\t\\\\x\\\"")).toBe(Buffer.from('line\nbreak\t\\x"').toString("hex"));
  expect(hex("caf\u00e9\\u202e.txt")).toBe(Buffer.from("caf\u00e9\u202e.txt").toString("hex"));
  expect(hex("\\U0001f600")).toBe(Buffer.from("\u{1f600}").toString("hex"));
  expect(hex("\\a\\b\\f\\r\\v\\x00")).toBe("07080c0d0b00");
  expect(hex("end\\")).toBe(Buffer.from("end\\").toString("hex"));
});
