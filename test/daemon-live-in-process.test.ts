// The node's live socket for a panel in the same process (core/live/in-process): admitted,
// opened and handled as a WebSocket is, with what the node sends handed over in the same turn.
// Real node, real server process.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { echoTemplate, eventually, startTestNode, type TestNode } from "./helpers/node";
import { MAX_FRAME_BYTES, MAX_REFUSALS } from "../core/live/limits";
import { MAX_SOCKETS_PER_SERVER } from "../daemon/channel/limits";
import type { LiveLink } from "../core/live/in-process";

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode();
  expect((await t.call("PUT", "/daemon/server/live", echoTemplate())).status).toBeLessThan(300);
  expect((await t.call("POST", "/daemon/server/live/install?wait=true")).status).toBe(204);
});
afterAll(() => t.stop());

/** A link to `id` and what came over it: the messages in order, and the close if there was one. */
function link(id: string, buffered = () => 0) {
  const received: any[] = [];
  const closes: { code: number; reason: string }[] = [];
  const live: LiveLink = t.node.connectLive(id, { deliver: (text) => received.push(JSON.parse(text)), closed: (code, reason) => closes.push({ code, reason }), buffered });
  return { live, received, closes, text: () => received.filter((m) => m.type === "console").map((m) => (Array.isArray(m.data.logs) ? m.data.logs.join("") : m.data.logs)).join("") };
}

describe("a live socket within the process", () => {
  test("the status comes at once; a command reaches the server and its answer comes back", async () => {
    const { live, received, text } = link("live");
    expect(live.readyState).toBe(1);
    // Handed over within the call, as the node wrote it: no turn of the event loop between.
    expect(received[0]).toMatchObject({ type: "status", data: { running: false } });
    live.send(JSON.stringify({ type: "start" }));
    await eventually(() => received.some((m) => m.type === "status" && m.data.running), 10_000, "the server runs");
    live.send(JSON.stringify({ type: "console", command: "hello in process" }));
    await eventually(() => text().includes("got hello in process"), 10_000, "the echo");
    live.send(JSON.stringify({ type: "console", command: "quit" }));
    await eventually(() => received.some((m) => m.type === "status" && m.data.running === false && received.indexOf(m) > 1), 10_000, "the server stops");
    live.close();
    expect(live.readyState).toBe(3);
  }, 30_000);

  test("the node's refusals come back as they would over a socket; too many in a row end it (1008)", () => {
    const { live, received, closes } = link("live");
    for (let i = 0; i < MAX_REFUSALS; i++) live.send(JSON.stringify({ type: "console", command: " " }));
    return eventually(() => closes.length === 1, 5000, "the close").then(() => {
      expect(received.filter((m) => m.error).length).toBe(MAX_REFUSALS);
      expect(closes[0]!.code).toBe(1008);
      expect(live.readyState).toBe(3);
      // Nothing more passes once it is closed.
      live.send(JSON.stringify({ type: "status" }));
      expect(received.filter((m) => m.type === "status").length).toBe(1);
    });
  });

  test("a frame larger than a WebSocket's may be ends the link (1009), handled by nothing", () => {
    const { live, received, closes } = link("live");
    live.send(JSON.stringify({ type: "console", command: "x".repeat(MAX_FRAME_BYTES) }));
    expect(closes).toEqual([{ code: 1009, reason: "message too big" }]);
    expect(received.filter((m) => m.error)).toEqual([]);
  });

  test("the node's admission holds: an unknown server, and more sockets than a server may have, are refused; closing frees a place", () => {
    expect(() => link("no-such-server")).toThrow();
    const links = Array.from({ length: MAX_SOCKETS_PER_SERVER }, () => link("live").live);
    expect(() => link("live")).toThrow(/too many sockets/);
    links[0]!.close();
    const again = link("live").live;
    for (const one of [...links, again]) one.close();
  });

  test("a browser that is not reading: console output is skipped, then said, as over a socket", async () => {
    let backlog = 10 * 1024 * 1024;
    const { live, text } = link("live", () => backlog);
    live.send(JSON.stringify({ type: "start" }));
    await Bun.sleep(300);
    live.send(JSON.stringify({ type: "console", command: "while the browser is away" }));
    await Bun.sleep(300);
    expect(text()).not.toContain("while the browser is away");
    backlog = 0;
    live.send(JSON.stringify({ type: "console", command: "back" }));
    await eventually(() => text().includes("got back"), 10_000, "the line after");
    expect(text()).toContain("daemon.outputSkipped");
    live.send(JSON.stringify({ type: "console", command: "quit" }));
    live.close();
  }, 30_000);
});
