// Finding restic: the one on the PATH when it is 0.14 or later; else one installed once into the
// binaries folder from the configured source (a bzip2-compressed release file, served here by a
// local fixture site), and used from there next time without downloading again.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findRestic, RESTIC_INSTALL_VERSION } from "./restic-binary";
import { tempDir } from "../../test/helpers/process";

const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };
const script = (version: string) => `#!/bin/sh\necho "restic ${version} compiled with go1.23 on linux/amd64"\n`;
const packed = Bun.spawnSync(["bzip2", "-c"], { stdin: new TextEncoder().encode(script(RESTIC_INSTALL_VERSION)) }).stdout;
const asked: string[] = [];
const site = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(request) {
    const path = new URL(request.url).pathname;
    asked.push(path);
    return path === `/releases/v${RESTIC_INSTALL_VERSION}/restic_${RESTIC_INSTALL_VERSION}_linux_${ARCH[process.arch]}.bz2` ? new Response(new Uint8Array(packed)) : new Response("no", { status: 404 });
  },
});
afterAll(() => site.stop(true));
const source = `http://127.0.0.1:${site.port}/releases`;

/** A folder holding a fake restic that says it is `version`. */
function pathWith(version: string): string {
  const dir = tempDir("kiln-path-");
  writeFileSync(join(dir, "restic"), script(version));
  chmodSync(join(dir, "restic"), 0o755);
  return dir;
}

describe("findRestic", () => {
  test("a recent enough restic on the PATH is used as it is", async () => {
    const path = pathWith("0.14.0");
    expect(await findRestic({ binariesDir: tempDir(), source, path, log: () => undefined })).toBe(join(path, "restic"));
    expect(asked).toEqual([]);
  });

  test("none on the PATH (or one too old): installed once into the binaries folder, then found there", async () => {
    const binariesDir = tempDir();
    const lines: string[] = [];
    const installed = await findRestic({ binariesDir, source, path: pathWith("0.9.6"), log: (l) => lines.push(l) });
    expect(installed).toBe(join(binariesDir, "restic", "restic"));
    expect(asked).toHaveLength(1);
    expect(lines.join("\n")).toContain("older than 0.14.0");
    const again = await findRestic({ binariesDir, source, path: "", log: () => undefined });
    expect(again).toBe(installed);
    expect(asked).toHaveLength(1);
  });

  test("a source that does not have it fails with the URL, and is tried again next time", async () => {
    const binariesDir = tempDir();
    mkdirSync(join(binariesDir, "bin"));
    await expect(findRestic({ binariesDir, source: `${source}/missing`, path: "", log: () => undefined })).rejects.toThrow(/could not fetch .*missing.*404/);
    expect(existsSync(join(binariesDir, "restic", "restic"))).toBe(false);
    expect(await findRestic({ binariesDir, source, path: "", log: () => undefined })).toBe(join(binariesDir, "restic", "restic"));
  });
});
