// The socket channel with real WebSocket clients: pushed status and console, requests, power
// actions, file actions, and the bounds that keep a flood from taking the node down.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { nodeAuthorization } from "./helpers/node-caller";
import { MAX_SOCKETS_PER_SERVER, MAX_MESSAGE_BYTES, MAX_REFUSALS } from "../daemon/channel/limits";
import { startTestNode, echoTemplate, eventually, type TestNode } from "./helpers/node";

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ stopTimeoutMs: 1500 });
  await t.json("PUT", "/daemon/server/sock1", echoTemplate());
  await t.json("POST", "/daemon/server/sock1/install?wait=true");
});
afterAll(() => t.stop());

describe("socket channel", () => {
  test("a socket without a valid token is refused", async () => {
    const ws = new WebSocket(`${t.node.url.replace("http", "ws")}/daemon/socket/sock1`, { headers: { authorization: nodeAuthorization("wrong-secret-wrong-secret", "GET", `${t.node.url}/daemon/socket/sock1`) } } as any);
    const closed = await new Promise<boolean>((resolve) => {
      ws.onopen = () => resolve(false);
      ws.onerror = () => resolve(true);
      ws.onclose = () => resolve(true);
    });
    expect(closed).toBe(true);
  });

  test("status on open; start, console lines, command, stat, replay and stop through the socket", async () => {
    const s = await t.socket("sock1");
    await s.next((m) => m.type === "status" && m.data.running === false);
    const opened = Date.now();
    s.send("start");
    await s.next((m) => m.type === "status" && m.data.running === true);
    await eventually(() => s.consoleText().includes("env world"), 5000, "console push");
    s.send("console", { command: "over the socket" });
    await eventually(() => s.consoleText().includes("got over the socket"), 5000, "command echo");
    s.send("stat");
    const stat = await s.next((m) => m.type === "stat");
    expect(stat.data.memory).toBeGreaterThan(0);
    s.send("replay", { since: opened });
    const replay = await s.next((m) => m.type === "console" && Array.isArray(m.data.logs));
    expect(replay.data.logs.join("")).toContain("hello world");
    expect(typeof replay.data.epoch).toBe("number");
    s.send("status");
    s.send("stop");
    // Stopped: not the status on open, nor the one a start sends while its pre-start steps run.
    await s.next((m) => m.type === "status" && m.data.running === false && !m.data.starting && m !== s.messages[0]);
    s.close();
  });

  test("a second client sees what the first one does, as it happens", async () => {
    const a = await t.socket("sock1");
    const b = await t.socket("sock1");
    a.send("start");
    await b.next((m) => m.type === "status" && m.data.running === true);
    const sent = Date.now();
    a.send("console", { command: "latency" });
    await eventually(() => b.consoleText().includes("got latency"), 2000, "line at the other client");
    expect(Date.now() - sent).toBeLessThan(1000);
    a.send("kill");
    await b.next((m) => m.type === "status" && m.data.running === false && !m.data.starting && b.messages.indexOf(m) > 0);
    a.close();
    b.close();
  });

  test("file actions list, create and delete inside the server's folder only", async () => {
    const s = await t.socket("sock1");
    s.send("file", { action: "get", path: "" });
    const listing = await s.next((m) => m.type === "file");
    expect(listing.data.files.map((f: any) => f.name)).toContain("motd.txt");
    const motd = listing.data.files.find((f: any) => f.name === "motd.txt");
    expect(motd).toMatchObject({ isFile: true, size: 11 });
    s.send("file", { action: "create", path: "configs" });
    await s.next((m) => m.type === "file" && m.data.files.some((f: any) => f.name === "configs" && !f.isFile));
    s.send("file", { action: "get", path: "../" });
    const refused = await s.next((m) => m.error);
    expect(refused.error.code).toBe("ErrPathOutside");
    s.send("file", { action: "delete", path: "configs" });
    await s.next((m) => m.type === "file" && m.data.path === "" && !m.data.files.some((f: any) => f.name === "configs"));
    s.close();
  });

  test("bad messages get a clear error and the socket stays usable", async () => {
    const s = await t.socket("sock1");
    s.ws.send("not json");
    expect((await s.next((m) => m.error)).error.code).toBe("ErrInvalidJson");
    s.send("teleport");
    await eventually(() => s.messages.filter((m) => m.error).length === 2);
    s.ws.send(JSON.stringify({ type: "console", data: { command: "x".repeat(MAX_MESSAGE_BYTES) } }));
    expect((await s.next((m) => m.error && m.error.code === "ErrMessageTooLarge")).error.metadata.max).toBe(MAX_MESSAGE_BYTES);
    s.send("status");
    await s.next((m) => m.type === "status" && s.messages.indexOf(m) > 0);
    s.close();
  });

  test("a flood of messages is rate limited and answered with ErrTooManyRequests", async () => {
    const s = await t.socket("sock1");
    const closed = new Promise<number>((resolve) => s.ws.addEventListener("close", (e) => resolve(e.code)));
    for (let i = 0; i < 300; i++) s.send("start");
    await s.next((m) => m.error && m.error.code === "ErrTooManyRequests");
    // A client that keeps going after MAX_REFUSALS refusals is disconnected.
    expect(await closed).toBe(1008);
    expect(s.messages.filter((m) => m.error).length).toBe(MAX_REFUSALS);
    // The node still answers other clients and the API.
    expect((await t.call("GET", "/daemon/server/sock1/status")).status).toBe(200);
    const other = await t.socket("sock1");
    other.send("status");
    await other.next((m) => m.type === "status");
    other.close();
    await t.call("POST", "/daemon/server/sock1/kill?wait=true");
  });

  test("sockets per server are capped; the next upgrade is refused with ErrTooManyRequests", async () => {
    const sockets = await Promise.all(Array.from({ length: MAX_SOCKETS_PER_SERVER }, () => t.socket("sock1")));
    const refused = await fetch(`${t.node.url}/daemon/socket/sock1`, {
      headers: { ...t.nodeHeaders("GET", `${t.node.url}/daemon/socket/sock1`), upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" },
    });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("ErrTooManyRequests");
    for (const s of sockets) s.close();
    await eventually(async () => {
      try {
        const again = await t.socket("sock1");
        again.close();
        return true;
      } catch {
        return false;
      }
    }, 3000, "a free slot after closing");
  });
});
