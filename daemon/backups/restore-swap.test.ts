// A restored tree is handed to the server's user entry by entry before it is swapped in. A server's
// process may have named a file with bytes that are not UTF-8 (restic keeps names as bytes): the
// walk went by names read as text, could not reach that entry, and the whole restore failed.
// Changing owners needs root (CI runs as root).
import { describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../test/helpers/process";
import { partAvailable } from "../../test/helpers/require-part";
import { handOverStaged } from "./restore-swap";

const asRoot = () => partAvailable("running as root (to change owners)", () => process.getuid?.() === 0);
const USER = { uid: 2_000_012_346, gid: 2_000_012_346 };

describe.skipIf(!asRoot())("handOverStaged", () => {
  test("every entry, names that are not UTF-8 included, becomes the server user's; links themselves", () => {
    const staged = tempDir("kiln-restore-staged-");
    const raw = (...parts: Array<string | number[]>) => Buffer.concat([Buffer.from(staged), ...parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part)))]);
    mkdirSync(raw("/old", [0xe9]));
    writeFileSync(raw("/old", [0xe9], "/f", [0xff]), "restored");
    writeFileSync(join(staged, "plain.txt"), "restored");
    symlinkSync("/etc/passwd", join(staged, "link"));
    handOverStaged(staged, USER);
    for (const path of [staged, raw("/old", [0xe9]), raw("/old", [0xe9], "/f", [0xff]), join(staged, "plain.txt"), join(staged, "link")]) expect(lstatSync(path).uid).toBe(USER.uid);
    expect(lstatSync("/etc/passwd").uid).toBe(0);
  });
});
