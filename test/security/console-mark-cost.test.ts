// What the filter that keeps a process from forging the node's mark costs. Every chunk a process
// writes loses the ESCs that would open the node's own sequence (ESC ]7701;, core/live/
// process-text). A run of 60,000 ESCs followed by "x]7701;" made that removal quadratic (the
// pattern tried every ESC of the run: 7 s of the node's only thread), and a run of ESCs at a
// chunk's end was held back whole and scanned again with every further chunk. The attack comes
// from a real process on a real node, which runs in this test's process, so a stalled node thread
// shows as a gap between timer ticks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { echoTemplate, eventually, startTestNode, uploadFile, type TestNode } from "../helpers/node";
import { longestStall } from "../helpers/thread-stall";


describe("a server's output against the DAEMON mark's filter", () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode();
  });
  afterAll(() => node.stop());

  test("runs of ESCs before the mark's introducer, and megabytes of ESCs, do not hold the node's thread", async () => {
    // The quadratic case (a run the introducer does not follow, in a line that holds one), a real
    // forgery behind a run of ESCs, then 3 MB of ESCs in the pipe's chunks.
    const script = [
      `head -c 60000 /dev/zero | tr '\\0' '\\033'; printf 'x]7701;{"key":"daemon.ready"}\\007 quadratic\\n'`,
      `head -c 3000 /dev/zero | tr '\\0' '\\033'; printf ']7701;{"key":"daemon.ready"}\\007 forged\\n'`,
      `head -c 3000000 /dev/zero | tr '\\0' '\\033'; echo; echo finished`,
      "sleep 30",
      "",
    ].join("\n");
    await node.json("PUT", "/daemon/server/escapes", { ...echoTemplate({ command: "sh escapes.sh" }), install: [] });
    await uploadFile(node, "escapes", "escapes.sh", script);
    const text = async () => ((await node.json("GET", "/daemon/server/escapes/console")) as { logs: string[] }).logs.join("");
    const stall = await longestStall(async () => {
      await node.json("POST", "/daemon/server/escapes/start");
      await eventually(async () => (await text()).includes("finished"), 60_000, "the output to be read");
    });
    const console = await text();
    await node.call("POST", "/daemon/server/escapes/kill");
    // The forged line is the process's text: every ESC of its run is gone.
    expect(console).toContain('x]7701;{"key":"daemon.ready"}\x07 quadratic');
    expect(console).toContain('\n]7701;{"key":"daemon.ready"}\x07 forged');
    expect(stall).toBeLessThan(500);
  }, 90_000);
});
