// Before a server's command runs as the server's own uid, the node runs a few programs as root: the
// limits' cgroup join, bubblewrap, the hand-over of /tmp, setpriv. A template's variables are the
// server's environment (7 Days to Die's sets LD_LIBRARY_PATH="${rootDir}"), and the server's user
// writes its folder. The attacks: a PATH into its folder with its own "setpriv", "env", "chown",
// "sh" and "prlimit"; an LD_LIBRARY_PATH into its folder holding its own libc. None of it may run
// or load as root: only the command itself, as the server's uid, sees the server's variables.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, echoTemplate, startTestNode, type TestNode } from "../helpers/node";

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(() => node.stop());

const consoleText = async (id: string) => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

describe("the root stages before a server's command", () => {
  test("run none of the programs a PATH into the server's folder names", async () => {
    const folder = node.folder("pathy");
    const template = echoTemplate({ command: "busybox sh -c 'echo legit uid=$(busybox id -u)'", environmentVars: { PATH: `${folder}:/usr/bin:/bin` } });
    await node.json("PUT", "/daemon/server/pathy", { ...template, install: [], limits: { memoryMiB: 256 } });
    for (const program of ["setpriv", "env", "chown", "sh", "prlimit", "nsenter", "bwrap"]) {
      writeFileSync(join(folder, program), `#!/bin/sh\necho "PLANTED ${program} ran as uid=$(id -u)"\n`);
      chmodSync(join(folder, program), 0o755);
    }
    await node.json("POST", "/daemon/server/pathy/start?wait=true");
    await eventually(async () => /legit|PLANTED|exited/.test(await consoleText("pathy")), 10_000, "the run");
    await Bun.sleep(300);
    const out = await consoleText("pathy");
    expect(out).not.toContain("PLANTED");
    expect(out).toMatch(/legit uid=[1-9]\d+/);
  }, 20_000);

  test("load no library from an LD_LIBRARY_PATH into the server's folder", async () => {
    const folder = node.folder("libby");
    const template = echoTemplate({ command: "busybox sh -c 'echo alive uid=$(busybox id -u)'", environmentVars: { LD_LIBRARY_PATH: "${rootDir}" } });
    await node.json("PUT", "/daemon/server/libby", { ...template, install: [], limits: { memoryMiB: 256 } });
    // The server's own "libc": any dynamically linked program that searched the folder would
    // load it (a real one would run its code as root; this one only fails to load).
    writeFileSync(join(folder, "libc.so.6"), "not a library");
    await node.json("POST", "/daemon/server/libby/start?wait=true");
    await eventually(async () => /alive|exited|ended/.test(await consoleText("libby")), 10_000, "the run");
    const out = await consoleText("libby");
    expect(out).not.toContain("error while loading shared libraries");
    expect(out).toMatch(/alive uid=[1-9]\d+/);
  }, 20_000);
});
