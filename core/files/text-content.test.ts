// The editor's gate: only bytes that come back unchanged from decoding and re-encoding open.
import { describe, expect, test } from "bun:test";
import { textContent } from "./text-content";

const bytes = (...parts: Array<string | number[]>) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));

describe("textContent", () => {
  test("UTF-8 text round-trips to the same bytes, a byte-order mark included", () => {
    for (const input of [bytes("motd=Hello\n"), bytes([0xef, 0xbb, 0xbf], "bom\n"), bytes("Grüße ✓ 🎮\n"), bytes("")]) {
      const result = textContent(input);
      if (!result.ok) throw new Error("refused");
      expect(new TextEncoder().encode(result.text)).toEqual(input);
    }
  });

  test("binary (a NUL byte) and non-UTF-8 bytes are refused", () => {
    expect(textContent(bytes("PK", [3, 4, 0, 0]))).toEqual({ ok: false, refusal: "binary" });
    expect(textContent(bytes([0x89, 0x50, 0x4e, 0x47]))).toEqual({ ok: false, refusal: "notUtf8" });
    expect(textContent(bytes("caf", [0xe9], "\n"))).toEqual({ ok: false, refusal: "notUtf8" });
  });

  test("line endings: one kind is kept as the separator; mixed ones are reported", () => {
    expect(textContent(bytes("a\r\nb\r\n"))).toMatchObject({ ok: true, lineSeparator: "\r\n", mixedLineEndings: false });
    expect(textContent(bytes("a\nb\n"))).toMatchObject({ ok: true, lineSeparator: "\n", mixedLineEndings: false });
    expect(textContent(bytes("a\r\nb\n"))).toMatchObject({ ok: true, mixedLineEndings: true });
    expect(textContent(bytes("a\rb\n"))).toMatchObject({ ok: true, mixedLineEndings: true });
  });
});
