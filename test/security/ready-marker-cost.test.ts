// What a booting server's output costs the node. A server (or whoever may change what it runs)
// writes its console, so every pattern the node runs over that output runs on hostile text. While
// a server boots, its lines are tried for the template's ready markers as written and with their
// colour codes removed; one ESC followed by tens of thousands of ';' made the remover backtrack
// in quadratic time (an 8,000-character line took 0.26 s, a 64,000-character one about 2 s of the
// node's only thread, for each such line). The attack comes from a real process on a real
// node, which runs in this test's process, so a stalled node thread shows as a gap between ticks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { echoTemplate, eventually, startTestNode, uploadFile, type TestNode } from "../helpers/node";
import { longestStall } from "../helpers/thread-stall";


describe("a booting server's output against the ready-marker watch", () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode();
  });
  afterAll(() => node.stop());

  test("lines of ESC and 64,000 semicolons do not hold the node's thread", async () => {
    // Three such lines, then the marker: the server becomes ready only after the node read them all.
    const script = `line() { printf '\\033'; head -c 64000 /dev/zero | tr '\\0' ';'; printf '!\\n'; }\nline; line; line\necho "Done booting"\nsleep 30\n`;
    await node.json("PUT", "/daemon/server/booter", { ...echoTemplate({ command: "sh boot.sh", readyMarkers: ["Done booting"] }), install: [] });
    await uploadFile(node, "booter", "boot.sh", script);
    const stall = await longestStall(async () => {
      await node.json("POST", "/daemon/server/booter/start");
      await eventually(async () => ((await node.json("GET", "/daemon/server/booter/console")) as { logs: string[] }).logs.join("").includes('"key":"daemon.ready"'), 60_000, "the server to be ready");
    });
    await node.call("POST", "/daemon/server/booter/kill");
    expect(stall).toBeLessThan(500);
  }, 90_000);
});
