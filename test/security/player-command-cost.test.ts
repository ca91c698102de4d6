// What a Minecraft server costs the node while a player command waits for its answer. The node
// reads the console from just before the command goes in until a line answers it (up to 5 s;
// daemon/players/console-command); the start of a line not ended yet was kept whole and joined to
// every further chunk, then split again. A server that writes without ending a line (here at the
// output throttle's 2 MB/s) while someone opens the Players tab or adds a player made each chunk
// cost all it had written since the command: the node's thread spent most of those seconds on it,
// and the whole text stayed in memory. The process is real, and the node runs in this test's
// process, whose CPU time is measured.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(() => node.stop());

const consoleText = async (id: string) => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

describe("a Minecraft server that never ends its line while a player command waits", () => {
  test("costs the node a bounded share of its thread", async () => {
    const template = { ...echoTemplate({ command: "sh -c \"echo started; tr '\\\\0' a < /dev/zero\"" }), type: "minecraft-java", install: [] };
    await node.json("PUT", "/daemon/server/flood", template);
    await node.json("POST", "/daemon/server/flood/start?wait=true");
    await eventually(async () => (await consoleText("flood")).includes("started"), 5000, "the process to start");
    const before = process.cpuUsage();
    const started = performance.now();
    // Who is online: `list`, answered by no line, so the node reads for the whole 5 s; twice.
    for (let i = 0; i < 2; i++) {
      const answer = await node.call("GET", "/daemon/server/flood/online-players");
      expect((await answer.json()).error?.code).toBe("ErrPlayerCommandTimeout");
    }
    const used = process.cpuUsage(before);
    const share = (used.user + used.system) / 1000 / (performance.now() - started);
    await node.json("POST", "/daemon/server/flood/kill");
    expect(share).toBeLessThan(0.35);
  }, 60_000);
});
