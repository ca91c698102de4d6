// A docker server's disk space is its folder. The attack, as the server's user inside its
// container (a plugin the game loads runs there): write past the server's disk limit anywhere
// else the image lets it, a world-writable folder of the image (its writable layer), /tmp, and a
// folder the image declares as a VOLUME (an anonymous volume the Engine makes at every start),
// then stop. Every such byte used to land in the Engine's storage on the node's disk, outside the
// limit, and the volumes stayed there after the container was removed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestNode, echoTemplate, eventually, uploadFile, type TestNode } from "../helpers/node";
import { tempDir } from "../helpers/process";
import { hasDocker, ensureTestImage } from "../helpers/docker";

const IMAGE = "kiln-test/busybox-volume";
const MEMORY_MIB = 48;

/** Each line: "WROTE <where>" when 8 MiB landed there, "refused <where>" when not. */
const ATTACK = `#!/bin/sh
try() { where=$1; if dd if=/dev/zero of="$where/fill" bs=1M count=8 2>/dev/null && sync; then echo "WROTE $where"; else echo "refused $where"; fi; }
try /scratch
try /data
try /tmp
grep -E ' /(tmp|data) ' /proc/mounts | sed 's/^/mount: /'
echo attack-done
`;

let t: TestNode;
let volumesBefore: string[] = [];

function volumes(): string[] {
  return Bun.spawnSync(["docker", "volume", "ls", "-q"]).stdout.toString().split("\n").filter(Boolean);
}

async function consoleText(id: string): Promise<string> {
  return (await t.json("GET", `/daemon/server/${id}/console`)).logs.join("");
}

beforeAll(async () => {
  if (!hasDocker()) return;
  const base = await ensureTestImage();
  // A world-writable folder in the image and a declared volume, as real images have (/var/tmp, VOLUME /data).
  const build = Bun.spawnSync(["docker", "build", "--network", "none", "-q", "-t", IMAGE, "-"], {
    env: { ...process.env, DOCKER_BUILDKIT: "0" },
    stdin: Buffer.from(`FROM ${base}\nRUN mkdir -m 1777 /scratch /data\nVOLUME /data\n`),
    stderr: "pipe",
  });
  if (build.exitCode !== 0) throw new Error(`docker build failed: ${build.stderr.toString()}`);
  volumesBefore = volumes();
  t = await startTestNode({ dataDir: tempDir("kiln-docker-disk-") });
});
afterAll(async () => {
  await t?.stop();
});

describe("a docker server writing outside its folder", () => {
  test.skipIf(!hasDocker())("lands nothing on the node's disk: the image is read-only, /tmp and its volumes are memory, no volume is left", async () => {
    const definition = { ...echoTemplate({ command: "sh attack.sh", stop: "" }, { type: "docker", image: IMAGE, networkMode: "none" }), install: [], limits: { diskMiB: 1, memoryMiB: MEMORY_MIB } };
    await t.json("PUT", "/daemon/server/filler", definition);
    await uploadFile(t, "filler", "attack.sh", ATTACK);
    await t.json("POST", "/daemon/server/filler/start?wait=true");
    await eventually(async () => (await consoleText("filler")).includes("attack-done"), 30_000, "the attack to finish");
    await eventually(async () => !(await t.json("GET", "/daemon/server/filler/status")).running, 15_000, "the container to end");
    const out = await consoleText("filler");

    expect(out).toContain("refused /scratch");
    // /tmp and the volume take writes, in memory sized to the server's memory limit.
    expect(out).toContain("WROTE /tmp");
    expect(out).toContain("WROTE /data");
    expect(out).toMatch(new RegExp(`mount: tmpfs /tmp tmpfs [^\\n]*size=${MEMORY_MIB * 1024}k`));
    expect(out).toMatch(new RegExp(`mount: tmpfs /data tmpfs [^\\n]*size=${MEMORY_MIB * 1024}k`));
    // Nothing of the run stays in the Engine's storage.
    expect(volumes().filter((volume) => !volumesBefore.includes(volume))).toEqual([]);
  }, 90_000);
});
