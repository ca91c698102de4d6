// The start-up clean-up removes only what a crashed write left, never a user's file.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bytesFromName } from "../../core/files/raw-name";
import { Jail } from "./jail";
import { isPartialName, partialName, removePartialFiles } from "./partial-file";
import { tempDir } from "../../test/helpers/process";

test("partial names are recognised; names users give are not", () => {
  expect(isPartialName(partialName("world.zip"))).toBe(true);
  expect(isPartialName(partialName(".hidden"))).toBe(true);
  for (const name of ["world.zip.part", ".world.zip.part", "x.kiln-partial", ".a.kiln-partial", ".a.1234.kiln-partial", `.a.${"0".repeat(32)}.kiln-partial`, partialName("a").slice(1), `${partialName("a")}.bak`]) {
    expect(isPartialName(name)).toBe(false);
  }
});

test("a partial name stays within NAME_MAX for a target of up to 255 bytes, cut by bytes, and is still recognised", () => {
  for (const target of ["a".repeat(255), "\uEFFF".repeat(255), "é".repeat(127)]) {
    const name = partialName(target);
    expect(bytesFromName(name).length).toBeLessThanOrEqual(255);
    expect(isPartialName(name)).toBe(true);
  }
});

test("removePartialFiles clears leftovers at any depth and nothing else, following no link", () => {
  const root = tempDir("kiln-partials-");
  const outside = tempDir("kiln-partials-outside-");
  const leftover = partialName("big.bin");
  const deep = partialName("region.mca");
  mkdirSync(join(root, "world", "region"), { recursive: true });
  writeFileSync(join(root, leftover), "half");
  writeFileSync(join(root, "world", "region", deep), "half");
  const kept = ["big.bin", ".big.bin.part", "notes.kiln-partial", join("world", "level.dat")];
  for (const name of kept) writeFileSync(join(root, name), "mine");
  // A partial-looking file outside, reached through a link: neither the link nor its target goes.
  const outsideName = partialName("secret");
  writeFileSync(join(outside, outsideName), "theirs");
  symlinkSync(outside, join(root, "link-out"));
  const linkName = partialName("linked");
  symlinkSync(join(outside, outsideName), join(root, linkName));
  // A folder named like a partial file is left alone (only files are written that way here).
  mkdirSync(join(root, partialName("folder")));

  const removed = removePartialFiles(new Jail(root)).sort();
  expect(removed).toEqual([leftover, `world/region/${deep}`].sort());
  for (const name of kept) expect(existsSync(join(root, name))).toBe(true);
  expect(existsSync(join(outside, outsideName))).toBe(true);
  expect(existsSync(join(root, linkName))).toBe(true);
});

test("a leftover of an upload under a name that is not UTF-8 is removed too, in a folder so named", () => {
  const root = tempDir("kiln-partials-raw-");
  const folder = Buffer.from([0x6f, 0x6c, 0x64, 0xe9]); // "old\xE9"
  const leftover = Buffer.concat([Buffer.from("."), Buffer.from([0x66, 0xff]), Buffer.from(partialName("").slice(1))]);
  mkdirSync(Buffer.concat([Buffer.from(`${root}/`), folder]));
  writeFileSync(Buffer.concat([Buffer.from(`${root}/`), folder, Buffer.from("/"), leftover]), "half");
  expect(removePartialFiles(new Jail(root))).toHaveLength(1);
  expect(readdirSync(Buffer.concat([Buffer.from(`${root}/`), folder]))).toEqual([]);
});
