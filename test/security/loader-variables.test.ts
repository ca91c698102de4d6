// Attack: loader variables as a way into a process the node runs as root. A server's own process
// gets LD_PRELOAD and LD_LIBRARY_PATH under their own names (as Wings gives an egg's variables to
// its container), and the server's user writes its folder. The processes the node puts in front
// of the command run as root with that folder as their working directory (the cgroup join,
// bubblewrap, setpriv), and install steps run on the node's side. The attacker's library,
// preloaded from the variables and from the template's environmentVars, records every process
// that loads it: only the server's own program, as the server's uid, may be on that list; an
// install step must not load it at all. A node that does not run as root has no drop to a server
// user: there bubblewrap itself, as the node's user, is the stage that must not load it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { eventually, startTestNode, type TestNode } from "../helpers/node";
import { hasGcc, writeLoaderBinaries } from "../helpers/loader-binaries";
import { tempDir } from "../helpers/process";
import { hostSpawn } from "../../daemon/environment/host-process";
import { DEFAULT_ISOLATION, probeIsolation } from "../../daemon/environment/sandbox";

const gcc = hasGcc();
let node: TestNode;
beforeAll(async () => {
  if (gcc) node = await startTestNode();
});
afterAll(() => node?.stop());

const consoleOf = async (id: string) => ((await node.json("GET", `/daemon/server/${id}/console?time=0`)).logs as string[]).join("");

test.if(gcc)("a preloaded library of the server's user is loaded by the server's program only, never by a stage run as root nor by an install step", async () => {
  const folder = node.folder("spied");
  const text = (value: string) => ({ display: "", type: "string", value, required: false, userEdit: true });
  const definition = {
    name: "spied",
    display: "spied",
    type: "other",
    install: [{ type: "command", commands: ["sh -c 'echo install ran'"] }],
    run: { command: "./hello", stop: "", environmentVars: { LD_PRELOAD: "${rootDir}/libs/libspy.so" } },
    data: { LD_LIBRARY_PATH: text("./libs"), LD_PRELOAD: text("./libs/libspy.so") },
    // A memory limit puts the limits' root stage (the cgroup join or prlimit) in front as well.
    limits: { memoryMiB: 256 },
    environment: { type: "standard" },
  };
  expect((await node.call("PUT", "/daemon/server/spied", definition)).status).toBeLessThan(300);
  writeLoaderBinaries(folder);
  expect((await node.call("POST", "/daemon/server/spied/install?wait=true")).status).toBe(204);
  expect(existsSync(join(folder, "loaded.log"))).toBe(false);
  expect((await node.call("POST", "/daemon/server/spied/start?wait=true")).status).toBe(204);
  await eventually(async () => /hello from|exited/.test(await consoleOf("spied")), 15_000, "the program's run");
  expect(await consoleOf("spied")).toContain("hello from ./libs");
  const loads = readFileSync(join(folder, "loaded.log"), "utf8").trim().split("\n");
  // The program itself loaded it, as the server's own uid ...
  expect(loads).toContainEqual(expect.stringMatching(/^uid=[1-9]\d* comm=hello$/));
  // ... and nothing else did: no root stage, and nothing as root at all.
  expect(loads.filter((line) => !/^uid=[1-9]\d* comm=hello$/.test(line))).toEqual([]);
  rmSync(join(folder, "loaded.log"));
}, 60_000);

test.if(gcc)("on a node without server users (not run as root), bubblewrap does not load it either: only the program", async () => {
  const data = tempDir("kiln-loader-nouser-");
  const serverDir = join(data, "server");
  const isolation = probeIsolation(DEFAULT_ISOLATION, join(data, "node"), join(data, "binaries"));
  expect(isolation.sandbox).toBe(true);
  writeLoaderBinaries(serverDir);
  const env = { LD_LIBRARY_PATH: "./libs", LD_PRELOAD: `${serverDir}/libs/libspy.so` };
  const target = hostSpawn({ serverDir, binPath: join(data, "binaries", "bin"), isolation, user: null }, { argv: ["./hello"], workingDirectory: "", env, output: () => {} }, false);
  const run = Bun.spawnSync(target.argv, { cwd: target.cwd, env: target.env, stdout: "pipe", stderr: "pipe" });
  expect(run.stdout.toString()).toBe("hello from ./libs\n");
  expect(run.exitCode).toBe(0);
  const loads = readFileSync(join(serverDir, "loaded.log"), "utf8").trim().split("\n");
  expect(loads).toEqual([expect.stringMatching(/^uid=\d+ comm=hello$/)]);
}, 30_000);
