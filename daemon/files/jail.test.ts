import { describe, expect, test } from "bun:test";
import { closeSync, existsSync, fstatSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync, writeSync, constants } from "node:fs";
import { join } from "node:path";
import { Jail } from "./jail";
import { beneathAvailable, O_PATH } from "./openat2";
import { KilnError } from "../../core/errors";
import { tempDir } from "../../test/helpers/process";

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return error instanceof KilnError ? error.code : String((error as { code?: string }).code);
  }
  return "no error";
}

describe("jail", () => {
  const root = tempDir("kiln-jail-");
  const outside = tempDir("kiln-outside-");
  writeFileSync(join(outside, "secret"), "outside");
  mkdirSync(join(root, "sub/deep"), { recursive: true });
  writeFileSync(join(root, "sub/file.txt"), "inside");
  symlinkSync(outside, join(root, "out"));
  symlinkSync("../../..", join(root, "sub/up"));
  symlinkSync("sub", join(root, "in"));
  symlinkSync(join(root, "sub"), join(root, "absolute-in"));
  // A chain where each link alone looks harmless: x -> . and y -> x/.. (which is the parent).
  symlinkSync(".", join(root, "sub/x"));
  symlinkSync("x/..", join(root, "sub/y"));
  symlinkSync("sub/y/..", join(root, "z"));
  const jail = new Jail(root);

  test("openat2 with RESOLVE_BENEATH is what this node uses", () => {
    expect(beneathAvailable).toBe(true);
  });

  test("paths inside resolve; new files under existing folders too; '..' that stays inside is fine", () => {
    expect(jail.resolve("sub/new.txt")).toBe(join(jail.root, "sub", "new.txt"));
    expect(jail.resolve("")).toBe(jail.root);
    expect(jail.resolve("in/x")).toBe(join(jail.root, "in", "x"));
    expect(jail.resolve("sub/deep/../file.txt")).toBe(join(jail.root, "sub", "file.txt"));
    expect(jail.resolve("sub/y/file.txt")).toBe(join(jail.root, "sub", "y", "file.txt"));
  });

  test("hostile paths are refused with ErrPathOutside", () => {
    const hostile = [
      "../x", "..", "sub/../../x", "sub/deep/../../../etc", "/etc/passwd", "//etc/passwd", "a\0b", "sub/file.txt\0.png",
      "out", "out/secret", "out/new.txt", "sub/up", "sub/up/etc/passwd", "z", "z/anything", "in/up/x",
      // Absolute symlinks are refused even when they point inside: a container sees the folder at
      // another path, and only relative links mean the same thing everywhere.
      "absolute-in/file.txt",
    ];
    for (const bad of hostile) expect([bad, codeOf(() => jail.resolve(bad))]).toEqual([bad, "ErrPathOutside"]);
    for (const bad of hostile) expect([bad, codeOf(() => closeSync(jail.open(bad, O_PATH)))]).toEqual([bad, "ErrPathOutside"]);
  });

  test("encoded separators and backslashes are just characters of a name inside", () => {
    for (const odd of ["..%2f..%2fetc", "%2e%2e", "..\\..\\x", "sub/%2E%2E%2Fsecret"]) {
      expect(jail.resolve(odd).startsWith(jail.root + "/")).toBe(true);
      expect(codeOf(() => jail.open(odd, O_PATH))).toBe("ErrNotFound");
    }
  });

  test("open reads and creates beneath the root only; creating through a dangling link out is refused", () => {
    const fd = jail.open("in/file.txt", constants.O_RDONLY);
    expect(fstatSync(fd).size).toBe(6);
    closeSync(fd);
    const created = jail.open("sub/made.txt", constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
    writeSync(created, "made");
    closeSync(created);
    expect(readFileSync(join(root, "sub/made.txt"), "utf8")).toBe("made");
    symlinkSync(join(outside, "planted"), join(root, "dangling"));
    expect(codeOf(() => jail.open("dangling", constants.O_WRONLY | constants.O_CREAT))).toBe("ErrPathOutside");
    expect(existsSync(join(outside, "planted"))).toBe(false);
  });

  test("at names the last component without following it; the parent must be inside", () => {
    expect(jail.at("out", (entry) => String(entry).endsWith("/out"))).toBe(true);
    expect(codeOf(() => jail.at("out/secret", () => undefined))).toBe("ErrPathOutside");
    expect(codeOf(() => jail.at("", () => undefined))).toBe("ErrNoPermission");
    jail.at("sub/renamed-from", (entry) => writeFileSync(entry, "x"));
    expect(readFileSync(join(root, "sub/renamed-from"), "utf8")).toBe("x");
  });

  test("a folder swapped for a link out after it was checked is not followed", () => {
    mkdirSync(join(root, "swap"));
    expect(jail.resolve("swap/f")).toBe(join(jail.root, "swap/f"));
    renameSync(join(root, "swap"), join(root, "swap-was"));
    symlinkSync(outside, join(root, "swap"));
    expect(codeOf(() => jail.at("swap/f", (entry) => writeFileSync(entry, "escaped")))).toBe("ErrPathOutside");
    expect(existsSync(join(outside, "f"))).toBe(false);
  });

  test("inFolder hands out the folder itself, held open", () => {
    expect(jail.inFolder("in", (folder) => existsSync(join(folder, "file.txt")))).toBe(true);
    expect(codeOf(() => jail.inFolder("out", () => undefined))).toBe("ErrPathOutside");
  });

  test("leadsInside follows a would-be link target as the kernel would, not by spelling", () => {
    // "sub/y/.." spells "sub", but sub/y is the root itself (y -> x/.., x -> .): it leads above the root.
    for (const inside of ["sub", "sub/..", "in/file.txt", "sub/x/x/deep", "missing/new", "sub/missing/more", "sub/deep/.."]) expect([inside, jail.leadsInside(inside)]).toEqual([inside, true]);
    for (const out of ["..", "sub/../..", "sub/y/..", "sub/x/../..", "out", "out/secret", "sub/up", "in/up", "absolute-in", "missing/..", "sub/file.txt/../..", "/etc", "a\0b"]) expect([out, jail.leadsInside(out)]).toEqual([out, false]);
  });

  test("realRelative names what a held folder or descriptor really is, links followed", () => {
    expect(jail.inFolder("in/deep", (held) => jail.realRelative(held, "in/deep"))).toBe("sub/deep");
    expect(jail.inFolder("", (held) => jail.realRelative(held, ""))).toBe("");
    const fd = jail.open("in/file.txt", constants.O_RDONLY);
    expect(jail.realRelative(`/proc/self/fd/${fd}`, "in/file.txt")).toBe("sub/file.txt");
    closeSync(fd);
    expect(codeOf(() => jail.realRelative(outside, "x"))).toBe("ErrPathOutside");
  });

  test("resolveEntry addresses a link out by itself, never through it", () => {
    expect(jail.resolveEntry("out")).toBe(join(jail.root, "out"));
    expect(codeOf(() => jail.resolveEntry("out/inner"))).toBe("ErrPathOutside");
    expect(codeOf(() => jail.resolveEntry("../x"))).toBe("ErrPathOutside");
  });
});
