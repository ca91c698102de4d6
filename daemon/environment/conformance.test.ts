// One suite that every ProcessEnvironment passes (standard, tty, docker): the promises of the
// interface (./types), checked the same way against each, on real processes and a real Docker
// Engine. Each environment is built as a node builds it (createEnvironment, the sandbox the node
// can make, the server's own uid when the tests run as root). Where environments differ by
// nature, the difference is a named trait of the subject, not a separate copy of a case. Docker
// skips with a printed reason only when no engine answers (and fails then under KILN_REQUIRE_ALL=1).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { constants } from "node:os";
import { join } from "node:path";
import { environmentSchema, type Environment, type EnvironmentType } from "../../core/definition";
import { tempDir } from "../../test/helpers/process";
import { hasDocker, ensureTestImage, TEST_IMAGE } from "../../test/helpers/docker";
import { consoleOf } from "../../test/helpers/environment-console";
import { eventually } from "../../test/helpers/node";
import { createEnvironment, type ExitInfo, type ProcessEnvironment } from ".";
import { dockerClient } from "./docker";
import { DEFAULT_ISOLATION, probeIsolation } from "./sandbox";
import { ServerUsers, type ServerUser } from "./server-user";

const DOCKER_SOCKET = "/var/run/docker.sock";

interface Subject {
  type: Exclude<EnvironmentType, "host">;
  /** Whether the environment can run here; docker: an engine answers (hasDocker says why not). */
  available(): boolean;
  spec(): Environment;
  /**
   * How an exit by signal is reported: by the signal's name, or as the exit code 128 + its number
   * (the Engine reports a container's end as an exit code only).
   */
  signalAs: "name" | "exit code";
  /** The process's input is a terminal. */
  terminal: boolean;
  /** A running process outlives the daemon, and a new environment object picks it up. */
  reattaches: boolean;
}

const SUBJECTS: Subject[] = [
  { type: "standard", available: () => true, spec: () => ({ type: "standard" }), signalAs: "name", terminal: false, reattaches: false },
  { type: "tty", available: () => true, spec: () => ({ type: "tty" }), signalAs: "name", terminal: true, reattaches: false },
  { type: "docker", available: hasDocker, spec: () => environmentSchema.parse({ type: "docker", image: TEST_IMAGE, networkMode: "host" }), signalAs: "exit code", terminal: false, reattaches: true },
];

/** Reads its input a line at a time: "quit" ends it with code 5, anything else is answered. */
const ECHO_LOOP = ["sh", "-c", 'echo hello; while read l; do [ "$l" = quit ] && { echo bye; exit 5; }; echo "got $l"; done'];

/** Processes on this machine whose command line is exactly `argv` (a container's too: they are the host's processes). */
function processesRunning(argv: string[]): number {
  const wanted = `${argv.join("\0")}\0`;
  let count = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8") === wanted) count++;
    } catch {
      // it ended while we looked
    }
  }
  return count;
}

describe.each(SUBJECTS)("the $type environment", (subject) => {
  const available = subject.available();
  const data = tempDir(`kiln-conformance-${subject.type}-`);
  const binaries = join(data, "binaries");
  mkdirSync(join(binaries, "bin"), { recursive: true });
  // As a node builds them: the sandbox it can make, each server's own uid when it runs as root.
  const isolation = probeIsolation(DEFAULT_ISOLATION, data, binaries);
  const users = new ServerUsers(DEFAULT_ISOLATION.uidRange);
  const docker = dockerClient(DOCKER_SOCKET);
  const made: Array<{ id: string; env: ProcessEnvironment }> = [];

  /** A fresh server: its folder, its user, and a way to make its environment object (again, as a restarted node would). */
  function server() {
    const id = `conf-${subject.type}-${crypto.randomUUID().slice(0, 8)}`;
    const dir = join(data, "servers", id);
    mkdirSync(dir, { recursive: true });
    const user: ServerUser | null = users.claim(dir);
    const make = () => {
      const env = createEnvironment(subject.spec(), { serverId: id, serverDir: dir, binPath: join(binaries, "bin"), isolation, user, docker: () => docker });
      made.push({ id, env });
      return env;
    };
    return { id, dir, user, env: make(), make };
  }

  const ownUid = (user: ServerUser | null) => user?.uid ?? process.getuid!();

  /** The exit a signal caused, as this environment reports it. */
  const endedBy = (signal: NodeJS.Signals): ExitInfo => (subject.signalAs === "name" ? { code: null, signal } : { code: 128 + constants.signals[signal], signal: null });

  beforeAll(async () => {
    if (available && subject.type === "docker") await ensureTestImage();
  }, 60_000);

  afterAll(async () => {
    for (const { env } of made) await env.destroy().catch(() => undefined);
    rmSync(data, { recursive: true, force: true });
  });

  test.skipIf(!available)("start: output and errors reach the sink, the process runs in the server's folder as the server's user, its exit is reported once", async () => {
    const { env, user } = server();
    const c = consoleOf();
    await env.start({ argv: ["sh", "-c", 'echo hello; echo oops >&2; echo "uid=$(id -u) pwd=$(pwd)"; exit 4'], workingDirectory: "", env: {}, ...c });
    await eventually(() => c.exits.length > 0, 10_000, "exit");
    expect(c.text()).toContain("hello");
    expect(c.text()).toContain("oops");
    expect(c.text()).toContain(`uid=${ownUid(user)} pwd=${env.rootDir}`);
    expect(c.exits).toEqual([{ code: 4, signal: null }]);
    await Bun.sleep(200);
    expect(c.exits).toHaveLength(1);
    expect(env.isRunning()).toBe(false);
  });

  test.skipIf(!available)("console input reaches the process a line at a time", async () => {
    const { env } = server();
    const c = consoleOf();
    await env.start({ argv: ECHO_LOOP, workingDirectory: "", env: {}, ...c });
    expect(env.isRunning()).toBe(true);
    await eventually(() => c.text().includes("hello"), 10_000, "first output");
    await env.sendInput("first line\n");
    await eventually(() => c.text().includes("got first line"), 10_000, "first answer");
    await env.sendInput("second\n");
    await eventually(() => c.text().includes("got second"), 10_000, "second answer");
    await env.kill();
  });

  test.skipIf(!available)(`the process's input is ${subject.terminal ? "" : "not "}a terminal`, async () => {
    const { env } = server();
    const c = consoleOf();
    await env.start({ argv: ["sh", "-c", 'if [ -t 0 ]; then echo "terminal: yes"; else echo "terminal: no"; fi'], workingDirectory: "", env: {}, ...c });
    await eventually(() => c.exits.length > 0, 10_000, "exit");
    expect(c.text()).toContain(subject.terminal ? "terminal: yes" : "terminal: no");
  });

  test.skipIf(!available)("stop by command: the stop line ends the process, and the code it chose is reported", async () => {
    const { env } = server();
    const c = consoleOf();
    await env.start({ argv: ECHO_LOOP, workingDirectory: "", env: {}, ...c });
    await eventually(() => c.text().includes("hello"), 10_000, "first output");
    await env.sendInput("quit\n");
    await eventually(() => c.exits.length > 0, 10_000, "exit after the stop command");
    expect(c.text()).toContain("bye");
    expect(c.exits).toEqual([{ code: 5, signal: null }]);
    expect(env.isRunning()).toBe(false);
  });

  test.skipIf(!available)("stop by signal: the signal reaches the command itself, which may end as it likes", async () => {
    const { env } = server();
    const c = consoleOf();
    // `wait` returns at once when a trapped signal arrives; a foreground sleep would be waited out.
    await env.start({ argv: ["sh", "-c", "trap 'echo caught TERM; exit 3' TERM; echo ready; while :; do sleep 1 & wait $!; done"], workingDirectory: "", env: {}, ...c });
    await eventually(() => c.text().includes("ready"), 10_000, "the trap set");
    await env.signal("SIGTERM");
    await eventually(() => c.exits.length > 0, 10_000, "exit after SIGTERM");
    expect(c.text()).toContain("caught TERM");
    expect(c.exits).toEqual([{ code: 3, signal: null }]);
  });

  test.skipIf(!available)(`a signal that ends the process is reported (${subject.signalAs === "name" ? "by its name" : "as 128 + its number"})`, async () => {
    const { env } = server();
    const c = consoleOf();
    await env.start({ argv: ["sh", "-c", "echo ready; while :; do sleep 1; done"], workingDirectory: "", env: {}, ...c });
    await eventually(() => c.text().includes("ready"), 10_000, "start");
    await env.signal("SIGKILL");
    await eventually(() => c.exits.length > 0, 10_000, "exit after SIGKILL");
    expect(c.exits).toEqual([endedBy("SIGKILL")]);
    expect(env.isRunning()).toBe(false);
  });

  test.skipIf(!available)("kill ends the whole process tree, its exit is reported once, and the environment starts again", async () => {
    const { env } = server();
    // A number no other process sleeps for: the children are found by their command line.
    const child = ["sleep", String(700_000 + Math.floor(Math.random() * 99_999))];
    const c = consoleOf();
    await env.start({ argv: ["sh", "-c", `${child.join(" ")} & ${child.join(" ")} & echo started; wait`], workingDirectory: "", env: {}, ...c });
    await eventually(() => c.text().includes("started") && processesRunning(child) === 2, 10_000, "the children running");
    await env.kill();
    await eventually(() => c.exits.length > 0, 10_000, "exit after kill");
    await eventually(() => processesRunning(child) === 0, 5000, "the children gone");
    await Bun.sleep(200);
    expect(c.exits).toHaveLength(1);
    expect(env.isRunning()).toBe(false);
    await env.kill(); // nothing running: no error

    const again = consoleOf();
    await env.start({ argv: ["sh", "-c", "echo again"], workingDirectory: "", env: {}, ...again });
    await eventually(() => again.exits.length > 0, 10_000, "the second run's exit");
    expect(again.text()).toContain("again");
    expect(again.exits).toEqual([{ code: 0, signal: null }]);
  });

  test.skipIf(!available)("stats answer while the process runs (memory, CPU as a finite percent) and read zero once it has ended", async () => {
    const { env } = server();
    const c = consoleOf();
    await env.start({ argv: ["sh", "-c", "echo ready; while :; do sleep 1; done"], workingDirectory: "", env: {}, ...c });
    await eventually(() => c.text().includes("ready"), 10_000, "start");
    const stats = await env.stats();
    expect(stats.memory).toBeGreaterThan(0);
    expect(Number.isFinite(stats.cpu)).toBe(true);
    expect(stats.cpu).toBeGreaterThanOrEqual(0);
    await env.kill();
    await eventually(() => c.exits.length > 0, 10_000, "exit");
    expect(await env.stats()).toEqual({ cpu: 0, memory: 0 });
  });

  test.skipIf(!available)("execute: a one-off command runs to its end in the folder asked, with its variables, and resolves with its exit code; what it writes is the server's user's", async () => {
    const { env, dir, user } = server();
    const c = consoleOf();
    const run = env.execute({ argv: ["sh", "-c", 'pwd; echo "$GREETING"; echo data > made.txt; echo oops >&2; exit 3'], workingDirectory: "sub", env: { GREETING: "hi there" }, output: c.output });
    // A step is not the server's main process.
    expect(env.isRunning()).toBe(false);
    expect(await run).toEqual({ code: 3, signal: null });
    expect(c.text()).toContain(`${env.rootDir}/sub`);
    expect(c.text()).toContain("hi there");
    expect(c.text()).toContain("oops");
    const file = join(dir, "sub", "made.txt");
    expect(readFileSync(file, "utf8")).toBe("data\n");
    expect(statSync(file).uid).toBe(ownUid(user));
  });

  test.skipIf(!available)("kill ends a running step too", async () => {
    const { env } = server();
    const c = consoleOf();
    const run = env.execute({ argv: ["sh", "-c", "echo step; while :; do sleep 1; done"], workingDirectory: "", env: {}, output: c.output });
    await eventually(() => c.text().includes("step"), 10_000, "the step running");
    await env.kill();
    const info = await run;
    expect(info.code === 0 && info.signal === null).toBe(false);
  });

  if (subject.reattaches) {
    test.skipIf(!available)("reattach: a new environment object picks the running process up, without replaying its output; once it is gone, there is nothing to pick up", async () => {
      const { env, make } = server();
      const before = consoleOf();
      await env.start({ argv: ECHO_LOOP, workingDirectory: "", env: {}, ...before });
      await eventually(() => before.text().includes("hello"), 10_000, "first output");
      const fresh = make();
      const c = consoleOf();
      expect(await fresh.reattach({ output: c.output, onExit: c.onExit })).toBe(true);
      expect(fresh.isRunning()).toBe(true);
      await fresh.sendInput("again\n");
      await eventually(() => c.text().includes("got again"), 10_000, "input after reattach");
      expect(c.text()).not.toContain("hello");
      await fresh.kill();
      await eventually(() => c.exits.length > 0, 10_000, "exit after kill");
      expect(c.exits).toHaveLength(1);
      expect(await make().reattach({ output: () => {}, onExit: () => {} })).toBe(false);
    });
  } else {
    test.skipIf(!available)("reattach finds nothing: the process does not outlive the daemon, and the one running is left alone", async () => {
      const { env, make } = server();
      const c = consoleOf();
      await env.start({ argv: ECHO_LOOP, workingDirectory: "", env: {}, ...c });
      await eventually(() => c.text().includes("hello"), 10_000, "first output");
      expect(await make().reattach({ output: () => {}, onExit: () => {} })).toBe(false);
      expect(env.isRunning()).toBe(true);
      await env.sendInput("still here\n");
      await eventually(() => c.text().includes("got still here"), 10_000, "the process still answering");
      await env.kill();
    });
  }
});
