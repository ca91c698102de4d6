// A server's /tmp and /dev/shm, with real programs that need them (coreutils' mktemp, util-linux's
// flock: what Source's lock files, the JVM's hsperfdata and .NET's temporary files do): writable
// by the server's own uid in the sandbox, owned by it and closed to others, bounded in size,
// charged to its memory cgroup, and gone when it stops.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, echoTemplate, startTestNode, type TestNode } from "./helpers/node";

const SCRIPT = `#!/bin/sh
echo "uid=$(id -u)"
if [ -e second-run ]; then
  if [ -e /tmp/marker ] || [ -e /dev/shm/marker ]; then echo "left-over"; else echo "fresh"; fi
  exit 0
fi
f=$(mktemp) && echo data > "$f" && flock "$f" -c "echo locked $f" && echo "temp-file-ok"
g=$(mktemp -p /dev/shm) && flock "$g" true && echo "shm-ok"
stat -c 'owner %u mode %a %n' /tmp /dev/shm
touch /tmp/marker /dev/shm/marker
dd if=/dev/zero of=/tmp/big bs=1M count=20 2>/dev/null && echo "wrote-20"
echo "waiting"
while [ ! -e measured ]; do sleep 0.1; done
df -k /tmp /dev/shm | awk 'NR > 1 { print "size " $2 " " $6 }'
dd if=/dev/zero of=/tmp/huge bs=1M count=200 2>/dev/null && echo "wrote-200"
echo "done"
`;

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(() => node.stop());

const consoleText = async () => ((await node.json("GET", "/daemon/server/tmp/console")).logs as string[]).join("");

test("private, owned by the server's uid, bounded by its memory limit, counted against it, gone after a stop", async () => {
  await node.json("PUT", "/daemon/server/tmp", { ...echoTemplate({ command: "sh tmp.sh" }), install: [], limits: { memoryMiB: 64 } });
  const folder = node.folder("tmp");
  writeFileSync(join(folder, "tmp.sh"), SCRIPT);
  await node.json("POST", "/daemon/server/tmp/start?wait=true");
  await eventually(async () => (await consoleText()).includes("waiting"), 15_000, "the temporary files");
  const out = await consoleText();
  const uid = Number(/uid=(\d+)/.exec(out)?.[1]);
  expect(uid).toBeGreaterThan(0);
  expect(out).toContain("temp-file-ok");
  expect(out).toMatch(/locked \/tmp\/tmp\.\w+/);
  expect(out).toContain("shm-ok");
  expect(out).toContain(`owner ${uid} mode 700 /tmp`);
  expect(out).toContain(`owner ${uid} mode 700 /dev/shm`);
  expect(out).toContain("wrote-20");
  // The 20 MB in /tmp are memory, charged to the server's cgroup.
  const limiter = node.node.limiter;
  if (limiter.mechanism === "cgroup1" || limiter.mechanism === "cgroup2") {
    const [memoryFolder] = limiter.folders("tmp");
    const usage = Number(readFileSync(join(memoryFolder!, limiter.mechanism === "cgroup2" ? "memory.current" : "memory.usage_in_bytes"), "utf8"));
    expect(usage).toBeGreaterThan(20 * 1024 * 1024);
  }
  // Not the node's /tmp.
  expect(existsSync("/tmp/marker")).toBe(false);
  writeFileSync(join(folder, "measured"), "");
  await eventually(async () => (await consoleText()).includes("done"), 15_000, "the end of the script");
  // Sized to the server's 64 MiB; 200 MB do not fit (the tmpfs is full, or the memory limit ends the writer first).
  expect(await consoleText()).toContain("size 65536 /tmp");
  expect(await consoleText()).toContain("size 65536 /dev/shm");
  expect(await consoleText()).not.toContain("wrote-200");

  await eventually(async () => (await consoleText()).includes("the server exited with code 0"), 15_000, "the first run's end");
  writeFileSync(join(folder, "second-run"), "");
  await node.json("POST", "/daemon/server/tmp/start?wait=true");
  await eventually(async () => /fresh|left-over/.test(await consoleText()), 15_000, "the second run");
  const second = (await consoleText()).slice(out.length);
  expect(second).toContain("fresh");
  expect(second).not.toContain("left-over");
}, 60_000);
