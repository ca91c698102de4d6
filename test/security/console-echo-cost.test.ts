// What a server with a network console (telnet, RCON: run.stdin) costs the node when its process
// writes without ever ending a line. The node compares the process's lines with the console's to
// show each once (daemon/servers/console-echo); the start of a line not ended yet was kept whole
// and joined to every further chunk, then split again: a process writing 'a' for ever (at the
// output throttle's 2 MB/s) grew that text without bound and made each chunk cost its whole
// length, so the node's thread was soon busy with nothing else and its memory grew by gigabytes an
// hour. The process is real, and the node runs in this test's process, whose CPU time is measured.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { templateSchema } from "../../core/definition";
import { startTestNode, eventually, type TestNode } from "../helpers/node";
import { freePort } from "../helpers/process";

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode({ stopTimeoutMs: 2000, isolation: { nftPath: "/nonexistent/nft" } });
});
afterAll(() => node.stop());

const consoleText = async (id: string) => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

describe("a process that never ends its line, with a network console", () => {
  test("costs the node a bounded share of its thread, however long it writes", async () => {
    // Nothing listens on the console's port: the node keeps trying, and the echo keeps comparing.
    const port = await freePort();
    const definition = templateSchema.parse({
      display: "echo flood",
      run: { command: "sh -c \"echo started; tr '\\\\0' a < /dev/zero\"", stdin: { type: "rcon", port: String(port), password: "sesame" } },
      environment: { type: "standard" },
    });
    await node.json("PUT", "/daemon/server/flood", definition);
    await node.json("POST", "/daemon/server/flood/start?wait=true");
    await eventually(async () => (await consoleText("flood")).includes("started"), 5000, "the process to start");
    // Let the unended line grow for a while, then measure what the next seconds cost.
    await Bun.sleep(8000);
    const before = process.cpuUsage();
    const started = performance.now();
    await Bun.sleep(4000);
    const used = process.cpuUsage(before);
    const share = (used.user + used.system) / 1000 / (performance.now() - started);
    await node.json("POST", "/daemon/server/flood/kill");
    // Reading 2 MB/s into the console buffer costs a few percent of a core; the unbounded line cost most of one.
    expect(share).toBeLessThan(0.35);
  }, 60_000);
});
