import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTar, readTar } from ".";

const enc = new TextEncoder();

describe("tar", () => {
  test("round-trips files of awkward sizes", () => {
    const entries = [
      { name: "theme.json", data: enc.encode('{"a":1}') },
      { name: "assets/empty.txt", data: new Uint8Array(0) },
      { name: "assets/exact.bin", data: new Uint8Array(512).fill(7) },
      { name: "assets/big.bin", data: new Uint8Array(1500).map((_, i) => i % 251) },
    ];
    const back = readTar(createTar(entries));
    expect(back.map((f) => f.name)).toEqual(entries.map((e) => e.name));
    back.forEach((f, i) => expect(Array.from(f.data)).toEqual(Array.from(entries[i]!.data)));
  });

  test("the system tar reads what we write", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-tar-"));
    writeFileSync(join(dir, "t.tar"), createTar([{ name: "hello.txt", data: enc.encode("hi there") }]));
    const proc = Bun.spawnSync(["tar", "-xf", "t.tar"], { cwd: dir });
    expect(proc.exitCode).toBe(0);
    expect(readFileSync(join(dir, "hello.txt"), "utf8")).toBe("hi there");
  });

  test("we read what the system tar writes", () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-tar-"));
    writeFileSync(join(dir, "a.css"), "body{}");
    expect(Bun.spawnSync(["tar", "--format=ustar", "-cf", "x.tar", "a.css"], { cwd: dir }).exitCode).toBe(0);
    const files = readTar(readFileSync(join(dir, "x.tar")));
    expect(files).toHaveLength(1);
    expect(new TextDecoder().decode(files[0]!.data)).toBe("body{}");
  });

  test("a corrupted header is refused", () => {
    const tar = createTar([{ name: "x", data: enc.encode("x") }]);
    tar[10] = 65;
    expect(() => readTar(tar)).toThrow("checksum");
  });
});
