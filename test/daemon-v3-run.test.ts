// How a node runs a v3 definition: expectedExitCode decides what is a crash; the run command
// entry is chosen by conditions reading the folder; a docker image takes a user's tag, the
// folder is also at /pufferpanel in the container; requirements with || and variables.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { templateSchema, type ServerDefinition } from "../core/definition";
import { startTestNode, eventually, type TestNode } from "./helpers/node";
import { ensureTestImage, hasDocker, TEST_IMAGE } from "./helpers/docker";

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode({ stopTimeoutMs: 2000 });
});
afterAll(() => node.stop());

const consoleText = async (id: string) => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
const def = (raw: Record<string, unknown>): ServerDefinition => templateSchema.parse({ display: "v3 run", environment: { type: "host" }, ...raw });

describe("expectedExitCode", () => {
  test("an exit with the expected code is a clean stop; another code is a crash (autorecover restarts it)", async () => {
    await node.json("PUT", "/daemon/server/exp1", def({ run: { command: "sh -c 'exit 3'", expectedExitCode: 3, autorecover: true, autorestart: false } }));
    await node.json("POST", "/daemon/server/exp1/start?wait=true");
    await eventually(async () => (await consoleText("exp1")).includes("exited with code 3"), 5000, "the exit");
    await Bun.sleep(1500);
    expect(await consoleText("exp1")).not.toContain("crashed");
    await node.json("PUT", "/daemon/server/exp2", def({ run: { command: "sh -c 'exit 0'", expectedExitCode: 3, autorecover: true } }));
    await node.json("POST", "/daemon/server/exp2/start?wait=true");
    await eventually(async () => (await consoleText("exp2")).includes("the server crashed; restarting it (autorecover)"), 5000, "the crash");
    await node.json("POST", "/daemon/server/exp2/kill");
  });
});

describe("the run command entry", () => {
  test("chosen by file_exists in the server's folder, substituted, with the host environment on a terminal", async () => {
    const command = [
      { command: "sh -c 'echo forge: $resolved; [ -t 0 ] && echo on a tty'", if: "file_exists('libraries/' + resolved + '/unix_args.txt')" },
      { command: "sh -c 'echo vanilla'" },
    ];
    await node.json("PUT", "/daemon/server/entry1", def({ data: { resolved: { type: "string", value: "47.2.0", userEdit: false } }, run: { command } }));
    await node.json("POST", "/daemon/server/entry1/start?wait=true");
    await eventually(async () => (await consoleText("entry1")).includes("vanilla"), 5000, "vanilla");
    await eventually(async () => (await consoleText("entry1")).includes("exited with code 0"), 5000, "the exit");
    await eventually(async () => !(await node.json("GET", "/daemon/server/entry1/status")).running, 5000, "the stop");
    const lib = node.folder("entry1", "libraries", "47.2.0");
    Bun.spawnSync(["mkdir", "-p", lib]);
    writeFileSync(join(lib, "unix_args.txt"), "");
    await node.json("POST", "/daemon/server/entry1/start?wait=true");
    await eventually(async () => (await consoleText("entry1")).includes("forge: 47.2.0"), 10_000, "forge");
    expect(await consoleText("entry1")).toContain("on a tty");
  });

  test("a command entry list with no entry that applies is refused naming the field", async () => {
    await node.json("PUT", "/daemon/server/entry2", def({ run: { command: [{ command: "x", if: "os == 'windows'" }] } }));
    const res = await node.call("POST", "/daemon/server/entry2/start?wait=true");
    expect((await res.json()).error).toMatchObject({ code: "ErrFieldRequired", metadata: { field: "run.command" } });
  });

  test("requirements with || alternatives and variables", async () => {
    await node.json("PUT", "/daemon/server/req1", def({ data: { v: { type: "string", value: "999" } }, requirements: { binaries: ["java${v} || javanope"] }, run: { command: "true" } }));
    const res = await node.call("POST", "/daemon/server/req1/start?wait=true");
    expect((await res.json()).error).toMatchObject({ code: "ErrMissingBinary", metadata: { expected: ["java999 or javanope"] } });
  });
});

describe("docker", () => {
  test("the image takes a user's tag; the folder is at /server and at /pufferpanel", async () => {
    if (!hasDocker()) return;
    await ensureTestImage();
    Bun.spawnSync(["docker", "tag", TEST_IMAGE, `${TEST_IMAGE}:java21`]);
    const environment = { type: "docker", image: `${TEST_IMAGE}:java\${javaversion}` };
    await node.json("PUT", "/daemon/server/dock1", def({
      data: { javaversion: { type: "string", value: "21", userEdit: true } },
      environment,
      install: [{ type: "command", commands: ["sh -c 'echo written > /pufferpanel/from-pufferpanel.txt'"], if: "env == 'docker'" }],
      run: { command: "sh -c 'cat /server/from-pufferpanel.txt; echo image ok'" },
    }));
    const install = await node.call("POST", "/daemon/server/dock1/install?wait=true");
    expect(install.status).toBe(204);
    await node.json("POST", "/daemon/server/dock1/start?wait=true");
    await eventually(async () => (await consoleText("dock1")).includes("image ok"), 20_000, "the container");
    expect(await consoleText("dock1")).toContain("written");
  }, 60_000);
});
