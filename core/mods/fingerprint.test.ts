// The streamed fingerprint against an independent whole-buffer MurmurHash2 (the npm `murmurhash`
// package, seed 1) over the same bytes with whitespace left out, for lengths that end on each
// block remainder, cut into chunks that split blocks anywhere.
import { describe, expect, test } from "bun:test";
import murmurhash from "murmurhash";
import { Fingerprint, strippedLength } from "./fingerprint";

function streamed(bytes: Uint8Array, chunk: number): number {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += chunk) chunks.push(bytes.subarray(at, at + chunk));
  const fingerprint = new Fingerprint(chunks.reduce((n, c) => n + strippedLength(c), 0));
  for (const c of chunks) fingerprint.update(c);
  return fingerprint.digest();
}

const stripped = (bytes: Uint8Array) => Buffer.from(bytes.filter((b) => b !== 9 && b !== 10 && b !== 13 && b !== 32));

describe("CurseForge's fingerprint", () => {
  test("equals MurmurHash2 (seed 1) of the bytes without whitespace, however the file is cut", () => {
    for (const length of [0, 1, 2, 3, 4, 5, 7, 8, 1000, 4099]) {
      const bytes = new Uint8Array(length).map((_, i) => (i * 37 + length) % 256);
      for (const chunk of [1, 3, 4, 5, 1024]) expect(streamed(bytes, chunk)).toBe(murmurhash.v2(stripped(bytes), 1));
    }
  });
  test("whitespace does not change it; any other byte does", () => {
    const text = new TextEncoder();
    expect(streamed(text.encode("a b\tc\r\nd"), 2)).toBe(streamed(text.encode("abcd"), 3));
    expect(streamed(text.encode("abce"), 4)).not.toBe(streamed(text.encode("abcd"), 4));
  });
});
