// The live socket through the panel to a node in the same process (`kiln panel`'s local node,
// core/live/in-process): no node token and no connection between them, so every rule must hold
// at the panel's end and the node's exactly as over a WebSocket. A user's message their flags do
// not allow is refused and never reaches the node; lowered flags stop what the node sends; a user
// taken off the server is disconnected and the node's end is closed with it (its place freed);
// refusals in a row disconnect. A real panel listener, a real node joined in process, real sockets.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CLOSE_ACCESS_REVOKED } from "../../core/live";
import { MAX_REFUSALS } from "../../core/live/limits";
import { MAX_SOCKETS_PER_SERVER } from "../../daemon/channel/limits";
import { serveInProcess } from "../../server/daemon-client";
import { eventually, type SocketMessage } from "../helpers/node";
import { jsonInit, servedPanelWithServer, type ServedPanel } from "../helpers/panel-node";
import type { LiveLink } from "../../core/live/in-process";

let rig: ServedPanel;
let stopServing: () => void;
/** The links the node's channel opened for the panel (each one's state is the node's end). */
const links: LiveLink[] = [];
const openLinks = () => links.filter((link) => link.readyState === 1).length;

interface LiveSocket {
  ws: WebSocket;
  messages: SocketMessage[];
  closed: Promise<number>;
  consoleText(): string;
  send(message: Record<string, unknown>): void;
}

function connect(token: string): Promise<LiveSocket> {
  const port = rig.server.port;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/proxy/daemon/socket/${rig.id}`, { headers: { cookie: `kiln=${token}`, origin: `http://127.0.0.1:${port}` } } as any);
  const messages: SocketMessage[] = [];
  ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
  const closed = new Promise<number>((resolve) => ws.addEventListener("close", (e) => resolve(e.code)));
  const socket: LiveSocket = {
    ws,
    messages,
    closed,
    consoleText: () => messages.filter((m) => m.type === "console").map((m) => (Array.isArray(m.data.logs) ? m.data.logs.join("") : m.data.logs)).join(""),
    send: (message) => ws.send(JSON.stringify(message)),
  };
  return new Promise((resolve, reject) => {
    ws.onopen = () => resolve(socket);
    ws.onerror = () => reject(new Error("socket refused"));
  });
}

let admin: LiveSocket;
async function say(word: string): Promise<void> {
  admin.send({ type: "console", command: word });
  await eventually(() => admin.consoleText().includes(`got ${word}`), 5000, `the answer to ${word}`);
}

beforeAll(async () => {
  rig = await servedPanelWithServer("in process");
  // The panel reaches this node as `kiln panel` reaches its own: by calls, not connections.
  const node = rig.node.node;
  stopServing = serveInProcess(node.url, { handle: node.handle, connectLive: (serverId, peer) => links[links.push(node.connectLive(serverId, peer)) - 1]! });
  admin = await connect(rig.ctx.admin.token);
  admin.send({ type: "start" });
  await eventually(() => admin.consoleText().includes("hello world"), 10_000, "the server's first output");
});
afterAll(async () => {
  admin?.ws.close();
  stopServing?.();
  await rig.stop();
});

describe("a live socket joined to a node in the panel's process", () => {
  test("each browser socket is joined by the in-process link, not a connection to the node", async () => {
    const before = links.length;
    const socket = await connect(rig.ctx.admin.token);
    await eventually(() => socket.messages.some((m) => m.type === "status"), 3000, "its status");
    expect(links.length).toBe(before + 1);
    expect(openLinks()).toBe(2);
    socket.ws.close();
    await eventually(() => openLinks() === 1, 3000, "its link closed with it");
  });

  test("a message the user's flags do not allow is refused at the panel and never reaches the node", async () => {
    const user = await rig.ctx.userWith(rig.id, { viewServerConsole: true });
    const socket = await connect(user.token);
    socket.send({ type: "console", command: "from-a-watcher" });
    socket.send({ type: "stop" });
    await eventually(() => socket.messages.filter((m) => m.error?.code === "ErrNoPermission").length === 2, 3000, "both refused");
    await say("after-the-attempt");
    expect(admin.consoleText()).not.toContain("got from-a-watcher");
    expect((await rig.node.json("GET", `/daemon/server/${rig.id}/status`)).running).toBe(true);
    socket.ws.close();
  });

  test("flags lowered: the node's console lines stop reaching the socket", async () => {
    const user = await rig.ctx.userWith(rig.id, { viewServerConsole: true });
    const socket = await connect(user.token);
    await say("before-lowering");
    await eventually(() => socket.consoleText().includes("got before-lowering"), 3000, "the line before");
    expect((await rig.ctx.panel.request(`/api/servers/${rig.id}/user/${encodeURIComponent(user.email)}`, { token: rig.ctx.admin.token, ...jsonInit("PUT", { viewServerStats: true }) })).status).toBeLessThan(300);
    await Bun.sleep(1000);
    await say("after-lowering");
    await Bun.sleep(300);
    expect(socket.consoleText()).not.toContain("after-lowering");
    socket.ws.close();
  });

  test("taken off the server: disconnected (4403), and the node's end closes with it", async () => {
    const user = await rig.ctx.userWith(rig.id, { viewServerConsole: true });
    const socket = await connect(user.token);
    expect((await rig.ctx.panel.request(`/api/servers/${rig.id}/user/${encodeURIComponent(user.email)}`, { token: rig.ctx.admin.token, method: "DELETE" })).status).toBeLessThan(300);
    expect(await socket.closed).toBe(CLOSE_ACCESS_REVOKED);
    await eventually(() => openLinks() === 1, 3000, "the node's end closed");
    // Every place but the admin's is free again at the node: as many sockets as a server may have open.
    const others = await Promise.all(Array.from({ length: MAX_SOCKETS_PER_SERVER - 1 }, () => connect(rig.ctx.admin.token)));
    for (const other of others) await eventually(() => other.messages.some((m) => m.type === "status"), 3000, "each one's status");
    for (const other of others) other.ws.close();
  });

  test(`${MAX_REFUSALS} forbidden messages in a row disconnect (1008); none reaches the node, whose end closes too`, async () => {
    const viewer = await rig.ctx.userWith(rig.id, {});
    const socket = await connect(viewer.token);
    for (let i = 0; i < MAX_REFUSALS * 3; i++) socket.send({ type: "console", command: `forbidden-${i}` });
    expect(await Promise.race([socket.closed, Bun.sleep(5000).then(() => null)])).toBe(1008);
    await eventually(() => openLinks() === 1, 3000, "the node's end closed");
    await say("after-the-flood");
    expect(admin.consoleText()).not.toContain("forbidden-");
  });
});
