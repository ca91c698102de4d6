import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { Jail } from "./jail";
import { tempDir } from "../../test/helpers/process";

describe("jail", () => {
  const root = tempDir("kiln-jail-");
  const outside = tempDir("kiln-outside-");
  mkdirSync(join(root, "sub"));
  symlinkSync(outside, join(root, "out"));
  symlinkSync(join(root, "sub"), join(root, "in"));
  const jail = new Jail(root);

  test("paths inside resolve; new files under existing folders too", () => {
    expect(jail.resolve("sub/new.txt")).toBe(join(jail.root, "sub", "new.txt"));
    expect(jail.resolve("")).toBe(jail.root);
    expect(jail.resolve("in/x")).toBe(join(jail.root, "in", "x"));
  });

  test("'..', absolute paths and symlinks out are refused", () => {
    for (const bad of ["../x", "sub/../../x", "/etc/passwd", "out", "out/new.txt", "a\0b"]) {
      expect(() => jail.resolve(bad)).toThrow();
    }
  });

  test("a symlink itself can be addressed without following it; writes onto one pointing out are refused", () => {
    expect(jail.resolveNoFinalLink("in")).toBe(join(jail.root, "in"));
    expect(() => jail.resolveNoFinalLink("out")).toThrow();
    expect(jail.resolveEntry("out")).toBe(join(jail.root, "out"));
    expect(() => jail.resolveEntry("out/inner")).toThrow();
    expect(() => jail.resolveEntry("../x")).toThrow();
  });
});
