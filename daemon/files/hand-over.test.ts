// The hand-over of what the node made to a server's user: folders and files with one name change
// owner, what someone else owns stays, and neither a link out nor a hard link to a file outside
// passes the change on. Changing owners needs root (CI runs as root).
import { describe, expect, test } from "bun:test";
import { chownSync, linkSync, lstatSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../test/helpers/process";
import { partAvailable } from "../../test/helpers/require-part";
import { handOverFolder } from "./hand-over";
import { Jail } from "./jail";

const asRoot = () => partAvailable("running as root (to change owners)", () => process.getuid?.() === 0);
const USER = { uid: 2_000_012_345, gid: 2_000_012_345 };
const OTHER = 2_000_054_321;

describe.skipIf(!asRoot())("handOverFolder", () => {
  test("hands over folders and single-name files, and nothing through links or hard links", async () => {
    const root = tempDir("kiln-hand-over-");
    const outside = tempDir("kiln-hand-over-outside-");
    writeFileSync(join(outside, "host.txt"), "host");
    mkdirSync(join(outside, "host-folder"));
    mkdirSync(join(root, "a/b"), { recursive: true });
    writeFileSync(join(root, "a/b/made.txt"), "made");
    writeFileSync(join(root, "theirs.txt"), "theirs");
    chownSync(join(root, "theirs.txt"), OTHER, OTHER);
    symlinkSync(outside, join(root, "link-out"));
    symlinkSync(join(outside, "host-folder"), join(root, "a/link-folder"));
    linkSync(join(outside, "host.txt"), join(root, "hard.txt"));

    await handOverFolder(new Jail(root), USER);

    for (const path of ["", "a", "a/b", "a/b/made.txt"]) expect([path, statSync(join(root, path)).uid]).toEqual([path, USER.uid]);
    expect(statSync(join(root, "theirs.txt")).uid).toBe(OTHER);
    for (const path of [outside, join(outside, "host.txt"), join(outside, "host-folder")]) expect([path, statSync(path).uid]).toEqual([path, 0]);
    expect(lstatSync(join(root, "link-out")).uid).toBe(0);
  });

  test("a folder and a file whose names are not UTF-8 are handed over too", async () => {
    const root = tempDir("kiln-hand-over-");
    const folder = Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0x6f, 0x6c, 0x64, 0xe9])]);
    const file = Buffer.concat([folder, Buffer.from("/"), Buffer.from([0x66, 0xff])]);
    mkdirSync(folder);
    writeFileSync(file, "made");
    await handOverFolder(new Jail(root), USER);
    for (const path of [folder, file]) expect(statSync(path).uid).toBe(USER.uid);
  });

  test("without a user of its own (the node is not root), nothing changes", async () => {
    const root = tempDir("kiln-hand-over-");
    writeFileSync(join(root, "made.txt"), "made");
    await handOverFolder(new Jail(root), null);
    expect(statSync(join(root, "made.txt")).uid).toBe(0);
  });
});
