// Servers in the tty and docker environments through the node, the console buffer under a
// flood, and a daemon restart that loses nothing. What every environment promises on its own
// (output, input, stops, kill, stats, exit, reattach) is daemon/environment/conformance.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { CONSOLE_BUFFER_CAP, CONSOLE_BUFFER_TRIM } from "../core/live";
import { OUTPUT_BURST, OUTPUT_RATE } from "../daemon/servers/output-throttle";
import { startTestNode, echoTemplate, eventually, type TestNode } from "./helpers/node";
import { hasDocker, ensureTestImage } from "./helpers/docker";

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ stopTimeoutMs: 2000 });
});
afterAll(() => t.stop());

const consoleText = async (node: TestNode, id: string) => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

describe("tty environment", () => {
  test("a flooding tty process is paused to the console's rate, and the node stays responsive", async () => {
    await t.json("PUT", "/daemon/server/ttyflood", echoTemplate({ command: "yes kiln-flood-line" }, { type: "tty" }));
    await t.json("PUT", "/daemon/server/ttyquiet", echoTemplate({}, { type: "tty" }));
    await t.json("POST", "/daemon/server/ttyquiet/install?wait=true");
    await t.json("POST", "/daemon/server/ttyquiet/start?wait=true");
    const started = Date.now();
    await t.json("POST", "/daemon/server/ttyflood/start?wait=true");
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) {
      const sent = Date.now();
      await t.call("POST", "/daemon/server/ttyquiet/console", `tick-${i}`);
      await eventually(async () => (await consoleText(t, "ttyquiet")).includes(`got tick-${i}`), 2000, "quiet tty server answers");
      answers.push(Date.now() - sent);
      await Bun.sleep(200);
    }
    await t.json("POST", "/daemon/server/ttyflood/kill?wait=true");
    await t.json("POST", "/daemon/server/ttyquiet/kill?wait=true");
    const seconds = (Date.now() - started) / 1000;
    const size = Buffer.byteLength(await consoleText(t, "ttyflood"));
    expect(size).toBeGreaterThan(100_000);
    // Not more than the burst plus the rate over the run (and what was in flight at a pause).
    expect(size).toBeLessThanOrEqual(OUTPUT_BURST + OUTPUT_RATE * seconds + 256 * 1024);
    answers.sort((a, b) => a - b);
    expect(answers[Math.floor(answers.length / 2)]!).toBeLessThan(200);
  });
});

describe("console buffer under a flood", () => {
  test("the buffer stays within the cap and keeps the newest output; other servers stay responsive", async () => {
    await t.json("PUT", "/daemon/server/flood", echoTemplate({ command: "sh -c 'i=0; while [ $i -lt 8 ]; do head -c 1000000 /dev/zero | tr \"\\\\0\" a; echo; echo chunk $i; i=$((i+1)); done; echo flood-done'" }));
    await t.json("PUT", "/daemon/server/quiet", echoTemplate());
    await t.json("POST", "/daemon/server/quiet/install?wait=true");
    await t.json("POST", "/daemon/server/quiet/start?wait=true");
    await t.json("POST", "/daemon/server/flood/start?wait=true");
    let maxSize = 0;
    const deadline = Date.now() + 20_000;
    let text = "";
    // The whole flooding buffer is read once a second: reads of the console are charged against the
    // server's replay budget (a buffer's size a second), and the test reads within it.
    let lastRead = 0;
    while (Date.now() < deadline) {
      const sent = Date.now();
      await t.call("POST", "/daemon/server/quiet/console", `ping-${sent}`);
      await eventually(async () => (await consoleText(t, "quiet")).includes(`got ping-${sent}`), 2000, "quiet server answers during the flood");
      if (Date.now() - lastRead >= 1100) {
        lastRead = Date.now();
        text = await consoleText(t, "flood");
        maxSize = Math.max(maxSize, Buffer.byteLength(text));
        if (text.includes("flood-done")) break;
      }
      await Bun.sleep(200);
    }
    expect(text).toContain("flood-done");
    expect(maxSize).toBeLessThanOrEqual(CONSOLE_BUFFER_CAP);
    expect(Buffer.byteLength(text)).toBeGreaterThan(CONSOLE_BUFFER_TRIM / 2);
    // The oldest output went first.
    expect(text).not.toContain("chunk 0\n");
    expect(text).toContain("chunk 7");
    await t.json("POST", "/daemon/server/quiet/kill?wait=true");
  }, 30_000);
});

describe("daemon restart", () => {
  test("definitions stay, autostart servers come back, others stay stopped", async () => {
    const node = await startTestNode({ stopTimeoutMs: 2000 });
    await node.json("PUT", "/daemon/server/keep", echoTemplate({ autostart: true }));
    await node.json("PUT", "/daemon/server/idle", echoTemplate());
    await node.json("POST", "/daemon/server/keep/install?wait=true");
    const again = await node.restart();
    try {
      expect((await again.json("GET", "/daemon/server/idle")).name).toBe("echo");
      await eventually(async () => (await again.json("GET", "/daemon/server/keep/status")).running, 5000, "autostart");
      expect((await again.json("GET", "/daemon/server/idle/status")).running).toBe(false);
      await eventually(async () => (await consoleText(again, "keep")).includes("hello world"));
    } finally {
      await again.stop();
    }
  });
});

describe("docker environment", () => {
  const docker = hasDocker();

  test.skipIf(!docker)("install and start in a container; a daemon restart re-attaches it, and the console still reaches it", async () => {
    const image = await ensureTestImage();
    const node = await startTestNode({ stopTimeoutMs: 5000 });
    const template = {
      ...echoTemplate({}, { type: "docker", image, networkMode: "host" }),
      install: [{ type: "command", commands: ["sh -c 'echo installed in a container > from-container.txt'"] }],
    };
    await node.json("PUT", "/daemon/server/dock1", template);
    let again: TestNode | null = null;
    try {
      await node.json("POST", "/daemon/server/dock1/install?wait=true");
      const file = node.folder("dock1", "from-container.txt");
      expect(existsSync(file)).toBe(true);
      // The server's own uid (the owner of its folder) when the node is root; else the node's.
      expect(statSync(file).uid).toBe(statSync(node.folder("dock1")).uid);
      await Bun.write(node.folder("dock1", "motd.txt"), "hello docker");
      await node.json("POST", "/daemon/server/dock1/start?wait=true");
      await eventually(async () => (await consoleText(node, "dock1")).includes("env world"), 15_000, "container output");
      expect(await consoleText(node, "dock1")).toContain("hello docker");

      // The container outlives the daemon and is picked up again.
      again = await node.restart();
      expect((await again.json("GET", "/daemon/server/dock1/status")).running).toBe(true);
      expect(await consoleText(again, "dock1")).toContain("re-attached");
      await again.call("POST", "/daemon/server/dock1/console", "after restart");
      await eventually(async () => (await consoleText(again!, "dock1")).includes("got after restart"), 5000, "input after re-attach");
      await again.json("POST", "/daemon/server/dock1/stop?wait=true");
      expect((await again.json("GET", "/daemon/server/dock1/status")).running).toBe(false);
    } finally {
      await (again ?? node).call("DELETE", "/daemon/server/dock1");
      await (again ?? node).stop();
    }
  }, 60_000);

  test("ErrDockerNotSupported when no engine answers", async () => {
    const node = await startTestNode({ dockerSocket: "/nonexistent/docker.sock" });
    try {
      await node.json("PUT", "/daemon/server/nodock", echoTemplate({}, { type: "docker", image: "kiln-test/busybox", networkMode: "host" }));
      const response = await node.call("POST", "/daemon/server/nodock/start?wait=true");
      expect((await response.json()).error.code).toBe("ErrDockerNotSupported");
      expect((await node.json("GET", "/daemon")).docker).toBe(false);
    } finally {
      await node.stop();
    }
  });
});
