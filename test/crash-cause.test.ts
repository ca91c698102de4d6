// Why a server stopped, from real processes on a real node: a process that fails to bind a port
// its own first listener holds, a memory hog ended by its cgroup's limit (as root), a crash report
// the process writes, an install step that fails, and an exit nothing explains. The cause is in
// the status answer until the next start, and said on the console as a DAEMON line; a stop asked
// for is no crash; an hs_err file the JVM left names out of memory; a log older than the start is not evidence.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestNode, echoTemplate, eventually, type TestNode } from "./helpers/node";
import { decodeDaemonLine } from "../core/live/daemon-message";
import { DAEMON_MARKER } from "../core/live";
import type { TemplateInput } from "../core/definition";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CRASH_CAUSE_IDS, causeKey, fixKey } from "../core/crash/causes";
import { DETAIL_SHAPES } from "../core/crash/message";
import en from "../locales/en.json";

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode();
});
afterAll(() => t.stop());

function definition(command: string, extra: Partial<TemplateInput> = {}): TemplateInput {
  return { ...echoTemplate({ command, stop: undefined }), install: [], ...extra };
}

async function daemonMessages(id: string) {
  const logs: string[] = (await t.json("GET", `/daemon/server/${id}/console`)).logs;
  return logs.join("").split("\n").filter((line) => line.startsWith(DAEMON_MARKER)).map((line) => decodeDaemonLine(line));
}

async function crashOf(id: string) {
  await eventually(async () => (await t.json("GET", `/daemon/server/${id}/status`)).crash !== undefined, 15_000, "the crash to be named");
  return (await t.json("GET", `/daemon/server/${id}/status`)).crash;
}

async function run(id: string, def: TemplateInput) {
  await t.json("PUT", `/daemon/server/${id}`, def);
  await t.call("POST", `/daemon/server/${id}/start?wait=true`);
  return crashOf(id);
}

test("every cause has its words, its fix and each detail shape's words in English", () => {
  const words = en as Record<string, string>;
  for (const id of [...CRASH_CAUSE_IDS, "unrecognised" as const]) {
    expect(words[causeKey(id)]).toBeString();
    expect(words[fixKey(id)]).toBeString();
  }
  for (const [cause, shapes] of Object.entries(DETAIL_SHAPES)) for (const shape of shapes) expect(words[`daemon.crash.detail.${cause}.${shape}`]).toBeString();
});

describe("a crash is named from what the server left", () => {
  test("a real process that cannot bind a port already taken: port in use, with the port; cleared at the next start", async () => {
    const listenTwice = `node -e "const n=require('net'); n.createServer().listen(27016, '127.0.0.1', () => n.createServer().listen(27016, '127.0.0.1'))"`;
    const crash = await run("bind", definition(listenTwice));
    expect(crash).toMatchObject({ cause: "portInUse", detail: { port: 27016 }, phase: "run", where: { source: "console" } });
    expect(crash.at).toBeGreaterThan(Date.now() - 60_000);
    const said = (await daemonMessages("bind")).find((line) => line.message?.key === "daemon.crash.stopped");
    expect(said?.text).toBe(`${DAEMON_MARKER}why the server stopped: its port is already in use: port 27016 is taken. What to do: stop whatever else uses the port, or give this server another port`);

    await t.json("POST", "/daemon/server/bind", definition("sh -c 'echo fine; sleep 30'"));
    await t.call("POST", "/daemon/server/bind/start?wait=true");
    expect((await t.json("GET", "/daemon/server/bind/status")).crash).toBeUndefined();
    // A stop asked for is no crash.
    await t.call("POST", "/daemon/server/bind/stop?wait=true");
    expect(await t.json("GET", "/daemon/server/bind/status")).toEqual({ running: false, installing: false });
    await t.call("DELETE", "/daemon/server/bind");
  }, 60_000);

  test("a crash report the process wrote names the cause and the line", async () => {
    const write = `sh -c 'mkdir -p crash-reports; printf "%s\\n" "---- Minecraft Crash Report ----" "java.lang.UnsupportedClassVersionError: a/B has been compiled by a more recent version of the Java Runtime (class file version 65.0), this version of the Java Runtime only recognizes class file versions up to 61.0" > crash-reports/crash-2024-03-02_13.40.02-server.txt; exit 1'`;
    const crash = await run("java", definition(write));
    expect(crash).toMatchObject({ cause: "javaVersion", detail: { needs: 21, runs: 17 }, where: { source: "crash-reports/crash-2024-03-02_13.40.02-server.txt", line: 2 } });
    await t.call("DELETE", "/daemon/server/java");
  }, 60_000);

  test("the JVM's hs_err file (recorded) written by the crash: out of memory, seen there", async () => {
    await t.json("PUT", "/daemon/server/hserr", definition("sh -c 'touch hs_err_pid4242.log; exit 1'"));
    const form = new FormData();
    form.append("file", new Blob([readFileSync(join(import.meta.dir, "fixtures/crash/hs_err_pid4242.log"))]), "hs_err_pid4242.log");
    expect((await t.fetch(`${t.node.url}/daemon/server/hserr/file/hs_err_pid4242.log`, { method: "PUT", body: form })).ok).toBe(true);
    await t.call("POST", "/daemon/server/hserr/start?wait=true");
    const crash = await crashOf("hserr");
    expect(crash).toMatchObject({ cause: "outOfMemory", where: { source: "hs_err_pid4242.log", line: 2 } });
    await t.call("DELETE", "/daemon/server/hserr");
  }, 60_000);

  test("a log left from before the start is not this crash's evidence", async () => {
    await t.json("PUT", "/daemon/server/stale", definition("sh -c 'exit 1'"));
    expect((await t.call("PUT", "/daemon/server/stale/file/logs?folder=true")).ok).toBe(true);
    const form = new FormData();
    form.append("file", new Blob(["java.lang.OutOfMemoryError: Java heap space\n"]), "latest.log");
    expect((await t.fetch(`${t.node.url}/daemon/server/stale/file/logs/latest.log`, { method: "PUT", body: form })).ok).toBe(true);
    await Bun.sleep(3000);
    await t.call("POST", "/daemon/server/stale/start?wait=true");
    expect(await crashOf("stale")).toMatchObject({ cause: "unrecognised", looked: [{ source: "console", lines: 0 }] });
    await t.call("DELETE", "/daemon/server/stale");
  }, 60_000);

  test("an exit nothing explains is unrecognised and points at what was read", async () => {
    const crash = await run("odd", definition("sh -c 'echo the flux capacitor gave up; exit 3'"));
    expect(crash).toMatchObject({ cause: "unrecognised", looked: [{ source: "console", lines: 1 }] });
    const lines = await daemonMessages("odd");
    expect(lines.find((line) => line.message?.key === "daemon.crash.stopped")?.text).toBe(`${DAEMON_MARKER}why the server stopped: not recognised. What to do: read the lines just above this one`);
    expect(lines.find((line) => line.message?.key === "daemon.crash.excerpt")?.text).toBe(`${DAEMON_MARKER}the last lines of the console: the flux capacitor gave up`);
    await t.call("DELETE", "/daemon/server/odd");
  }, 60_000);

  test("a failed install is named too", async () => {
    const install = [{ type: "command" as const, commands: "sh -c 'echo \"./steamcmd: error while loading shared libraries: libstdc++.so.6: cannot open shared object file: No such file or directory\"; exit 127'" }];
    await t.json("PUT", "/daemon/server/inst", definition("sh -c 'sleep 1'", { install }));
    expect((await t.call("POST", "/daemon/server/inst/install?wait=true")).ok).toBe(false);
    const crash = await crashOf("inst");
    expect(crash).toMatchObject({ cause: "missingLibrary", detail: { library: "libstdc++.so.6" }, phase: "install" });
    expect((await daemonMessages("inst")).some((line) => line.text.startsWith(`${DAEMON_MARKER}why the install failed: a library it needs is not installed: libstdc++.so.6`))).toBe(true);
    await t.call("DELETE", "/daemon/server/inst");
  }, 60_000);

  const root = process.getuid?.() === 0;
  test.skipIf(!root)("a process that exhausts its cgroup's memory: out of memory, with the limit", async () => {
    const hog = "sh -c 'a=x; i=0; while [ $i -lt 28 ]; do a=$a$a; i=$((i+1)); done; echo hog-survived'";
    const crash = await run("hog", definition(hog, { limits: { memoryMiB: 32 } }));
    expect(crash).toMatchObject({ cause: "outOfMemory", detail: { limit: 32 }, phase: "run" });
    expect((await daemonMessages("hog")).some((line) => line.text === `${DAEMON_MARKER}why the server stopped: it ran out of memory: its memory limit is 32 MiB. What to do: give it more memory (its memory limit, and Java's -Xmx below that limit) or lower its load: fewer players, mods or view distance`)).toBe(true);
    await t.call("DELETE", "/daemon/server/hog");
  }, 60_000);
});
