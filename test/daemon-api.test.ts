// The node's API with real processes: auth, definitions on disk, variables, install, power
// actions, console, stats, requirements.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { signNodeToken } from "../core/node-token";
import { startTestNode, echoTemplate, eventually, type TestNode } from "./helpers/node";

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ stopTimeoutMs: 1500 });
});
afterAll(() => t.stop());

const consoleText = async (id: string) => ((await t.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

describe("node token", () => {
  test("a missing, forged or expired token answers 401 and does nothing", async () => {
    const url = `${t.node.url}/daemon/server/nope`;
    const definition = JSON.stringify(echoTemplate());
    const put = { direction: "to-node" as const, nodeId: 0, method: "PUT", target: "/daemon/server/nope" };
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer " },
      { authorization: `Bearer ${signNodeToken("another-secret-of-enough-length", put)}` },
      { authorization: `Bearer ${signNodeToken(t.config.secret, put, Date.now() - 120_000)}` },
      { authorization: `Bearer ${signNodeToken(t.config.secret, put).slice(0, -2)}xx` },
    ];
    for (const headers of attempts) {
      const response = await fetch(url, { method: "PUT", headers: { ...headers, "content-type": "application/json" }, body: definition });
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe("ErrInvalidCredentials");
    }
    expect(existsSync(join(t.config.dataDir, "servers", "nope.json"))).toBe(false);
    expect((await fetch(`${t.node.url}/daemon/socket/nope`)).status).toBe(401);
  });

  test("a valid token reaches the node", async () => {
    const info = await t.json("GET", "/daemon");
    expect(info.os).toBe(process.platform);
    expect(typeof info.docker).toBe("boolean");
  });
});

describe("definitions", () => {
  test("create writes the definition as JSON beside the server's folder; GET returns it", async () => {
    expect((await t.call("PUT", "/daemon/server/def1", echoTemplate())).status).toBe(201);
    const file = join(t.config.dataDir, "servers", "def1.json");
    expect(JSON.parse(readFileSync(file, "utf8")).name).toBe("echo");
    expect(existsSync(t.folder("def1"))).toBe(true);
    expect(readdirSync(join(t.config.dataDir, "servers")).some((n) => n.endsWith(".tmp"))).toBe(false);
    const def = await t.json("GET", "/daemon/server/def1");
    expect(def.run.stop).toBe("quit");
    expect((await t.call("PUT", "/daemon/server/def1", echoTemplate())).status).toBe(409);
  });

  test("bad definitions, ids and bodies are refused and change nothing", async () => {
    const bad = await t.call("POST", "/daemon/server/def1", { install: [{ type: "teleport" }] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("ErrInvalidJson");
    expect((await t.call("POST", "/daemon/server/def1", "{not json")).status).toBe(400);
    expect((await t.json("GET", "/daemon/server/def1")).name).toBe("echo");
    expect((await t.call("GET", "/daemon/server/..%2Fetc")).status).toBe(404);
    expect((await t.call("GET", "/daemon/server/missing")).status).toBe(404);
  });

  test("data reads and sets variables; reload re-reads an edited file", async () => {
    expect(await t.json("GET", "/daemon/server/def1/data")).toEqual({ data: { greeting: "world" } });
    expect((await t.call("POST", "/daemon/server/def1/data", { data: { greeting: "there" } })).status).toBe(204);
    expect((await t.json("GET", "/daemon/server/def1")).data.greeting.value).toBe("there");
    expect((await t.call("POST", "/daemon/server/def1/data", { data: { nope: "x" } })).status).toBe(404);
    const file = join(t.config.dataDir, "servers", "def1.json");
    const edited = JSON.parse(readFileSync(file, "utf8"));
    edited.display = "Edited on disk";
    writeFileSync(file, JSON.stringify(edited));
    expect((await t.json("GET", "/daemon/server/def1")).display).toBe("Echo test");
    expect((await t.call("POST", "/daemon/server/def1/reload")).status).toBe(204);
    expect((await t.json("GET", "/daemon/server/def1")).display).toBe("Edited on disk");
  });

  test("delete removes the definition and the folder", async () => {
    await t.json("PUT", "/daemon/server/gone", echoTemplate());
    expect((await t.call("DELETE", "/daemon/server/gone")).status).toBe(204);
    expect(existsSync(join(t.config.dataDir, "servers", "gone.json"))).toBe(false);
    expect(existsSync(t.folder("gone"))).toBe(false);
    expect((await t.call("GET", "/daemon/server/gone")).status).toBe(404);
  });
});

describe("lifecycle of a standard server", () => {
  test("install runs the steps with variables substituted and its output on the console", async () => {
    await t.json("PUT", "/daemon/server/echo1", echoTemplate());
    expect((await t.call("POST", "/daemon/server/echo1/install?wait=true")).status).toBe(204);
    expect(readFileSync(t.folder("echo1", "motd.txt"), "utf8")).toBe("hello world");
    const text = await consoleText("echo1");
    expect(text).toContain("[kiln] installing the server");
    expect(text).toContain("[kiln] installation finished");
  });

  test("start, console command, stats, stop by console command", async () => {
    expect((await t.call("POST", "/daemon/server/echo1/start?wait=true")).status).toBe(204);
    expect(await t.json("GET", "/daemon/server/echo1/status")).toEqual({ running: true, installing: false });
    await eventually(async () => (await consoleText("echo1")).includes("env world"), 5000, "env line");
    expect(await consoleText("echo1")).toContain("hello world");
    const before = Date.now();
    expect((await t.call("POST", "/daemon/server/echo1/console", "ping")).status).toBe(204);
    await eventually(async () => (await consoleText("echo1")).includes("got ping"), 5000, "echo");
    const since = (await t.json("GET", `/daemon/server/echo1/console?time=${before}`)).logs.join("");
    expect(since).toContain("got ping");
    expect(since).not.toContain("hello world");
    const stats = await t.json("GET", "/daemon/server/echo1/stats");
    expect(stats.memory).toBeGreaterThan(0);
    expect(Number.isFinite(stats.cpu)).toBe(true);
    expect((await t.call("POST", "/daemon/server/echo1/stop?wait=true")).status).toBe(204);
    expect((await t.json("GET", "/daemon/server/echo1/status")).running).toBe(false);
    expect(await consoleText("echo1")).toContain("got quit");
    expect(await consoleText("echo1")).toContain("[kiln] the server exited with code 0");
    expect((await t.json("GET", "/daemon/server/echo1/stats")).memory).toBe(0);
  });

  test("stop by signal (stopCode) and kill reach the process tree", async () => {
    await t.json("PUT", "/daemon/server/sig1", echoTemplate({ command: "sh -c 'sleep 60 & wait'", stop: undefined, stopCode: 15 }));
    await t.json("POST", "/daemon/server/sig1/start?wait=true");
    expect((await t.call("POST", "/daemon/server/sig1/stop?wait=true")).status).toBe(204);
    expect(await consoleText("sig1")).toContain("ended by SIGTERM");
    await t.json("POST", "/daemon/server/sig1/start?wait=true");
    expect((await t.call("POST", "/daemon/server/sig1/kill?wait=true")).status).toBe(204);
    await eventually(async () => !(await t.json("GET", "/daemon/server/sig1/status")).running);
    expect(await consoleText("sig1")).toContain("ended by SIGKILL");
  });

  test("a stop command that is ignored ends in a kill after the stop timeout", async () => {
    await t.json("PUT", "/daemon/server/stubborn", echoTemplate({ command: "sh -c 'trap \"\" TERM; while read l; do :; done'", stop: "please" }));
    await t.json("POST", "/daemon/server/stubborn/start?wait=true");
    expect((await t.call("POST", "/daemon/server/stubborn/stop?wait=true")).status).toBe(204);
    expect(await consoleText("stubborn")).toContain("did not stop within 1.5 s; killing it");
  });

  test("restart stops, waits, and starts a new process; power actions are serialised", async () => {
    // Each process prints a value of its own (its pid is the same in each sandbox's PID namespace).
    await t.json("PUT", "/daemon/server/re1", echoTemplate({ command: "sh -c 'echo run $(cat /proc/sys/kernel/random/uuid); while read l; do [ \"$l\" = quit ] && exit 0; done'" }));
    await t.json("POST", "/daemon/server/re1/start?wait=true");
    await eventually(async () => /run \S+/.test(await consoleText("re1")));
    const started = Date.now();
    // Fired together: they must run one after another, never interleaved.
    const [restart, status] = await Promise.all([t.call("POST", "/daemon/server/re1/restart?wait=true"), t.call("POST", "/daemon/server/re1/start?wait=true")]);
    expect(restart.status).toBe(204);
    expect(status.status).toBe(204);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await eventually(async () => ((await consoleText("re1")).match(/run \S+/g) ?? []).length === 2);
    const runs = (await consoleText("re1")).match(/run (\S+)/g)!;
    expect(runs[0]).not.toBe(runs[1]);
    expect(((await consoleText("re1")).match(/starting the server/g) ?? []).length).toBe(2);
    await t.call("POST", "/daemon/server/re1/kill?wait=true");
  });

  test("pre and post steps run around the process", async () => {
    await t.json("PUT", "/daemon/server/prepost", echoTemplate({
      command: "sh -c 'cat pre.txt; echo'",
      pre: [{ type: "writefile", target: "pre.txt", text: "pre ran" }],
      post: [{ type: "writefile", target: "post.txt", text: "post ran" }],
    }));
    await t.json("POST", "/daemon/server/prepost/start?wait=true");
    await eventually(() => existsSync(t.folder("prepost", "post.txt")), 5000, "post step");
    expect(await consoleText("prepost")).toContain("pre ran");
  });

  test("autorestart after a normal exit; autorecover after a crash, up to the crash-loop limit", async () => {
    await t.json("PUT", "/daemon/server/auto1", echoTemplate({ command: "sh -c 'echo run; exit 0'", autorestart: true }));
    await t.json("POST", "/daemon/server/auto1/start?wait=true");
    await eventually(async () => ((await consoleText("auto1")).match(/^run$/gm) ?? []).length >= 2, 5000, "autorestart");
    // Stop it from coming back: turn autorestart off, then let the current run end.
    const def = await t.json("GET", "/daemon/server/auto1");
    def.run.autorestart = false;
    await t.json("POST", "/daemon/server/auto1", def);

    await t.json("PUT", "/daemon/server/crash1", echoTemplate({ command: "sh -c 'echo crash; exit 7'", autorecover: true }));
    await t.json("POST", "/daemon/server/crash1/start?wait=true");
    await eventually(async () => (await consoleText("crash1")).includes("not restarting it again"), 10_000, "crash-loop limit");
    const text = await consoleText("crash1");
    expect((text.match(/^crash$/gm) ?? []).length).toBe(3);
    expect(text).toContain("exited with code 7");
    expect((await t.json("GET", "/daemon/server/crash1/status")).running).toBe(false);
  });

  test("a crash without autorecover and a stop we asked for are not restarted", async () => {
    await t.json("PUT", "/daemon/server/once", echoTemplate({ command: "sh -c 'echo once; exit 1'" }));
    await t.json("POST", "/daemon/server/once/start?wait=true");
    await Bun.sleep(1500);
    expect(((await consoleText("once")).match(/^once$/gm) ?? []).length).toBe(1);
  });
});

describe("requirements and errors", () => {
  test("OS, architecture and programs are checked before start and install", async () => {
    await t.json("PUT", "/daemon/server/req1", { ...echoTemplate(), requirements: { os: "plan9" } });
    const os = await t.call("POST", "/daemon/server/req1/start?wait=true");
    expect((await os.json()).error).toMatchObject({ code: "ErrUnsupportedOS", metadata: { actual: process.platform, expected: "plan9" } });
    await t.json("POST", "/daemon/server/req1", { ...echoTemplate(), requirements: { arch: "sparc" } });
    const arch = await t.call("POST", "/daemon/server/req1/install?wait=true");
    expect((await arch.json()).error.code).toBe("ErrUnsupportedArch");
    await t.json("POST", "/daemon/server/req1", { ...echoTemplate(), requirements: { os: "linux", binaries: ["sh", "no-such-program-kiln"] } });
    const bin = await t.call("POST", "/daemon/server/req1/start?wait=true");
    expect((await bin.json()).error).toMatchObject({ code: "ErrMissingBinary", metadata: { expected: ["no-such-program-kiln"] } });
    const noWait = await t.call("POST", "/daemon/server/req1/start");
    expect((await noWait.json()).error.code).toBe("ErrMissingBinary");
    expect((await t.json("GET", "/daemon/server/req1/status")).running).toBe(false);
    expect(existsSync(t.folder("req1", "motd.txt"))).toBe(false);
  });

  test("a program that does not exist answers ErrMissingBinary", async () => {
    await t.json("PUT", "/daemon/server/nobin", echoTemplate({ command: "no-such-program-kiln --flag" }));
    const response = await t.call("POST", "/daemon/server/nobin/start?wait=true");
    expect((await response.json()).error.code).toBe("ErrMissingBinary");
    expect(await consoleText("nobin")).toContain("could not start");
  });

  test("a failing install step stops the install with a clear console line and error", async () => {
    await t.json("PUT", "/daemon/server/failing", {
      ...echoTemplate(),
      install: [
        { type: "command", commands: "sh -c 'echo step one; exit 4'" },
        { type: "writefile", target: "never.txt", text: "x" },
      ],
    });
    const response = await t.call("POST", "/daemon/server/failing/install?wait=true");
    // The template's failure, not the node's: a 4xx with the reason (core/errors ErrStepFailed).
    expect(response.status).toBe(422);
    expect((await response.json()).error.code).toBe("ErrStepFailed");
    const text = await consoleText("failing");
    expect(text).toContain("step one");
    expect(text).toMatch(/failed/);
    expect(existsSync(t.folder("failing", "never.txt"))).toBe(false);
    expect((await t.json("GET", "/daemon/server/failing/status")).installing).toBe(false);
  });

  test("a step cannot reach outside the server's folder", async () => {
    await t.json("PUT", "/daemon/server/escape", { ...echoTemplate(), install: [{ type: "writefile", target: "../escape.txt", text: "x" }] });
    expect((await t.call("POST", "/daemon/server/escape/install?wait=true")).status).toBe(422);
    expect(existsSync(join(t.config.dataDir, "servers", "escape.txt"))).toBe(false);
  });
});
