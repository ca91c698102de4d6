// The live-socket client against a real node: queueing before open, reconnecting after the
// node goes away and comes back, and giving up after RECONNECT_ATTEMPTS failed attempts.
import { describe, expect, test } from "bun:test";
import { LiveClient, RECONNECT_ATTEMPTS } from "../core/live/client";
import type { LiveMessage, LiveRefusal } from "../core/live";
import { startTestNode, echoTemplate, eventually } from "./helpers/node";

describe("live client", () => {
  test("messages sent before open are queued and sent on open", async () => {
    const t = await startTestNode();
    await t.json("PUT", "/daemon/server/lc1", echoTemplate());
    const messages: Array<LiveMessage<string, any> | LiveRefusal> = [];
    const client = new LiveClient({
      connect: () => new WebSocket(`${t.node.url.replace("http", "ws")}/daemon/socket/lc1`, { headers: t.nodeHeaders("GET", `${t.node.url}/daemon/socket/lc1`) } as any),
      onMessage: (m) => messages.push(m),
    });
    expect(client.state).toBe("connecting");
    client.send("stat");
    client.send("file", { action: "get", path: "" });
    await eventually(() => messages.some((m) => "type" in m && m.type === "stat") && messages.some((m) => "type" in m && m.type === "file"));
    client.close();
    await t.stop();
  });

  test("reconnects when the node comes back; gives up after the allowed attempts", async () => {
    const t = await startTestNode();
    await t.json("PUT", "/daemon/server/lc2", echoTemplate());
    const states: string[] = [];
    let failed = false;
    const port = t.node.port;
    const client = new LiveClient({
      connect: () => new WebSocket(`ws://127.0.0.1:${port}/daemon/socket/lc2`, { headers: t.nodeHeaders("GET", `http://127.0.0.1:${port}/daemon/socket/lc2`) } as any),
      onMessage: () => undefined,
      onState: (s) => states.push(s),
      onFailed: () => (failed = true),
    });
    await eventually(() => client.state === "open");
    const again = await t.restart();
    await eventually(() => states.filter((s) => s === "open").length === 2, 5000, "reconnect");
    await again.stop();
    await eventually(() => failed, 12_000, "give up");
    // The connection after the restart lasted under 30 s, so its failure still counts: the
    // first connect plus RECONNECT_ATTEMPTS retries in all, then it gave up.
    expect(states.filter((s) => s === "connecting").length).toBe(1 + RECONNECT_ATTEMPTS);
    client.close();
  }, 20_000);
});
