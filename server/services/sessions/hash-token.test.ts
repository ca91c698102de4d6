// A token's stored hash is SHA-256 of its UTF-8 bytes in hex: what rows written before are looked
// up by, whatever the token holds (a bearer header may carry any non-space characters).
import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { hashToken, randomToken } from "./index";

test("hashToken is the hex SHA-256 of the token's UTF-8 bytes", () => {
  for (const token of [randomToken(), "", "abc", "é😀", "\ud800", "a\udc00b", "x".repeat(10_000), "\u0000z"]) {
    expect(hashToken(token)).toBe(createHash("sha256").update(token, "utf8").digest("hex"));
  }
  expect(hashToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});
