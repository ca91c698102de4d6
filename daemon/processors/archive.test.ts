// Safe tar.gz extraction: hand-built archives with every way out of the folder we know of.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gzipSync } from "bun";
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extractTarGz } from "./archive";
import { startFixtureSources, type FixtureSources } from "../../test/helpers/step-sources";

let fixtures: FixtureSources;
beforeAll(() => void (fixtures = startFixtureSources()));
afterAll(() => fixtures.stop());

interface RawEntry {
  name: string;
  /** ustar type flag: 0 file, 1 hard link, 2 symbolic link, 5 folder. */
  type?: "0" | "1" | "2" | "5";
  link?: string;
  text?: string;
  mode?: number;
}

/** A tar written byte by byte, so it can hold names no well-behaved tar program would write. */
function rawTarGz(entries: RawEntry[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  const put = (header: Uint8Array, offset: number, value: string) => header.set(new TextEncoder().encode(value), offset);
  const octal = (n: number, width: number) => n.toString(8).padStart(width - 1, "0") + "\0";
  for (const entry of entries) {
    const data = new TextEncoder().encode(entry.text ?? "");
    const header = new Uint8Array(512);
    put(header, 0, entry.name);
    put(header, 100, octal(entry.mode ?? (entry.type === "5" ? 0o755 : 0o644), 8));
    put(header, 108, octal(0, 8));
    put(header, 116, octal(0, 8));
    put(header, 124, octal(data.length, 12));
    put(header, 136, octal(1_700_000_000, 12));
    put(header, 148, "        ");
    put(header, 156, entry.type ?? "0");
    put(header, 157, entry.link ?? "");
    put(header, 257, "ustar\0");
    put(header, 263, "00");
    put(header, 148, octal(header.reduce((a, b) => a + b, 0), 7));
    blocks.push(header, new Uint8Array(Math.ceil(data.length / 512) * 512).fill(0).map((_, i) => data[i] ?? 0));
  }
  blocks.push(new Uint8Array(1024));
  return gzipSync(Buffer.concat(blocks));
}

/** Extracts `entries` into <tmp>/dest (with an outside file beside it); returns where things are. */
async function extracting(entries: RawEntry[], strip = 1) {
  const parent = fixtures.tempDir("extract");
  const archive = join(fixtures.tempDir("archive"), "tool.tar.gz");
  writeFileSync(archive, rawTarGz(entries));
  writeFileSync(join(parent, "secret"), "outside");
  const dest = join(parent, "dest");
  const result = await extractTarGz(archive, dest, strip).then(() => undefined, (e: Error) => e);
  return { parent, dest, error: result };
}

test("a well-formed archive lands whole, top folder stripped, links inside kept", async () => {
  const { dest, error } = await extracting([
    { name: "tool-1.0/", type: "5" },
    { name: "tool-1.0/bin/tool", text: "#!/bin/sh\necho tool\n", mode: 0o755 },
    { name: "tool-1.0/lib/a.txt", text: "a" },
    { name: "tool-1.0/lib/b.txt", type: "2", link: "a.txt" },
    { name: "tool-1.0/share/c.txt", type: "2", link: "../lib/a.txt" },
    { name: "tool-1.0/lib/hard.txt", type: "1", link: "tool-1.0/lib/a.txt" },
  ]);
  expect(error).toBeUndefined();
  expect(readdirSync(dest).sort()).toEqual(["bin", "lib", "share"]);
  expect(statSync(join(dest, "bin/tool")).mode & 0o111).not.toBe(0);
  expect(readlinkSync(join(dest, "lib/b.txt"))).toBe("a.txt");
  expect(readFileSync(join(dest, "share/c.txt"), "utf8")).toBe("a");
  expect(readFileSync(join(dest, "lib/hard.txt"), "utf8")).toBe("a");
});

describe("refused, with nothing left behind", () => {
  const cases: [string, RawEntry[]][] = [
    ["a ../ entry", [{ name: "tool/ok.txt", text: "ok" }, { name: "../evil", text: "evil" }]],
    ["a .. inside the path", [{ name: "tool/../../evil", text: "evil" }]],
    ["an absolute path", [{ name: "/tmp/kiln-archive-evil", text: "evil" }]],
    ["a link to an absolute path", [{ name: "tool/etc", type: "2", link: "/etc" }]],
    ["a link climbing out", [{ name: "tool/up", type: "2", link: "../../secret" }]],
    ["a chain of links that escapes only when followed", [{ name: "tool/x", type: "2", link: "." }, { name: "tool/y", type: "2", link: "x/.." }]],
    ["a hard link to outside", [{ name: "tool/h", type: "1", link: "tool/../../secret" }]],
    [
      "a hard link through a link",
      [{ name: "tool/x", type: "2", link: "." }, { name: "tool/y", type: "2", link: "x/.." }, { name: "tool/h", type: "1", link: "tool/y/secret" }],
    ],
  ];
  for (const [name, entries] of cases) {
    test(name, async () => {
      const { parent, error } = await extracting(entries);
      expect(error?.message).toMatch(/^refused tool\.tar\.gz: /);
      expect(readdirSync(parent)).toEqual(["secret"]);
      expect(readFileSync(join(parent, "secret"), "utf8")).toBe("outside");
      expect(lstatSync("/tmp/kiln-archive-evil", { throwIfNoEntry: false })).toBeUndefined();
    });
  }

  test("a file that is not a tar.gz", async () => {
    const parent = fixtures.tempDir("extract");
    const archive = join(fixtures.tempDir("archive"), "tool.tar.gz");
    writeFileSync(archive, "<html>Service unavailable</html>");
    await expect(extractTarGz(archive, join(parent, "dest"), 1)).rejects.toThrow("could not unpack tool.tar.gz");
    expect(readdirSync(parent)).toEqual([]);
  });
});
