// The rule for untrusted labels: what would hide or lie is escaped, everything else is shown as
// written, and the file names' extra escapes (raw bytes) apply only where asked.
import { describe, expect, test } from "bun:test";
import { labelHasEscapes, labelParts, shownLabel } from "./shown-label";

describe("shown labels", () => {
  test("bidi overrides, zero-width characters, controls and spaces at the ends are escaped", () => {
    expect(shownLabel("\u202Enimda")).toBe("\\u202Enimda");
    expect(shownLabel("admin\u200B")).toBe("admin\\u200B");
    expect(shownLabel("ad\u2066min\u2069")).toBe("ad\\u2066min\\u2069");
    expect(shownLabel("a\u0000b\nc\u0085")).toBe("a\\u0000b\\nc\\u0085");
    expect(shownLabel(" admin ")).toBe("\\u0020admin\\u0020");
    expect(shownLabel("\u3164")).toBe("\\u3164");
    expect(labelParts("x\u202Ey")).toEqual([{ text: "x", escape: false }, { text: "\\u202E", escape: true }, { text: "y", escape: false }]);
  });

  test("ordinary names are shown as written, in any script, spaces inside and emoji kept", () => {
    for (const label of ["Steve_01", "Ελένη", "محمد", "名前", "two words", "❤️ fan", "§cRed"]) {
      expect(shownLabel(label)).toBe(label);
      expect(labelHasEscapes(label)).toBe(false);
    }
  });

  test("private-use characters are a label's own text unless a user of the rule escapes them", () => {
    expect(shownLabel("\uEF80")).toBe("\uEF80");
    expect(shownLabel("a\uEF80", (code) => (code === 0xef80 ? "\\x80" : null))).toBe("a\\x80");
  });
});
