// Player management against a real Minecraft protocol server (minecraft-protocol's createServer,
// test/fixtures/minecraft-console/mc-console-server.mjs) run by Kiln, joined by real clients: a
// whitelist written while the server is stopped keeps a stranger out at the next start, a
// whitelist add through the API lets them in at their next join, and a kick through the API
// disconnects the client with its reason.
//
// The node runs without the sandbox: the server imports minecraft-protocol from this checkout's
// node_modules, which the sandbox (rightly) does not show a server's process.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import mc from "minecraft-protocol";
import { panelForAll, jsonInit, type PanelWithNode } from "./helpers/panel-node";
import { echoTemplate, eventually } from "./helpers/node";
import { putTemplate } from "../server/services/templates";
import { writeFiles } from "./helpers/file-tree";
import { ROOT, freePort } from "./helpers/process";

let ctx: PanelWithNode;
let id: string;
let port: number;
const clients: mc.Client[] = [];
panelForAll((made) => (ctx = made), { isolation: { bwrapPath: "/nonexistent/bwrap" } });

const api = (method: string, path: string, body?: unknown) => ctx.panel.request(`/api/servers/${id}/players${path}`, { token: ctx.admin.token, ...jsonInit(method, body) });
const consoleText = async () => ((await ctx.node.json("GET", `/daemon/server/${id}/console`)) as { logs: string[] }).logs.join("");
/** The server said the player joined: it let them in. */
const inGame = (name: string) => eventually(async () => (await consoleText()).includes(`${name} joined the game`), 10_000, `${name} in the game`);
const power = (action: string) => ctx.panel.request(`/proxy/daemon/server/${id}/${action}?wait=true`, { token: ctx.admin.token, method: "POST" });

/** Joins as `username`; resolves "joined" once in the game, or the reason the server gave for ending it. */
function connect(username: string): { client: mc.Client; joined: Promise<string>; ended: Promise<string> } {
  const client = mc.createClient({ host: "127.0.0.1", port, username, version: "1.20.1", auth: "offline" });
  client.on("error", () => undefined);
  clients.push(client);
  const ended = new Promise<string>((resolve) => {
    client.on("kick_disconnect", (packet: { reason: unknown }) => resolve(JSON.stringify(packet.reason)));
    client.on("disconnect", (packet: { reason: unknown }) => resolve(JSON.stringify(packet.reason)));
    client.on("end", (reason: string) => resolve(`ended: ${reason}`));
  });
  // In the game once the login succeeded (the protocol's play state); this server sends no world.
  const joined = Promise.race([new Promise<string>((resolve) => client.on("state", (state) => { if (state === mc.states.PLAY) resolve("joined"); })), ended]);
  return { client, joined, ended };
}

beforeAll(async () => {
  port = await freePort();
  const entry = join(ROOT, "node_modules", "minecraft-protocol", "src", "index.js");
  const script = join(ROOT, "test", "fixtures", "minecraft-console", "mc-console-server.mjs");
  await putTemplate(ctx.panel.db, "mc-real", {
    ...echoTemplate({ command: `node ${script} \${port} ${entry}`, stop: "stop", readyMarkers: ["Done ("] }),
    name: "mc-real",
    type: "minecraft-java",
    install: [],
    data: { port: { display: "Port", desc: "", type: "integer", value: port, required: true, userEdit: false } },
  });
  const res = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "mc-real", node: ctx.nodeId, template: "mc-real", environment: { type: "standard" } }) });
  expect(res.status).toBe(201);
  id = ((await res.json()) as { id: string }).id;
  writeFiles(ctx.node.folder(id), { "server.properties": "online-mode=false\n" });
  await eventually(async () => !((await (await ctx.node.call("GET", `/daemon/server/${id}/status`)).json()) as { installing: boolean }).installing, 10000, "the install to end");
}, 30_000);
afterAll(async () => {
  for (const client of clients) client.end();
  await power("kill");
});

describe("a real Minecraft protocol server", () => {
  test("a whitelist written while stopped keeps a stranger out; added while running, they join next time", async () => {
    expect((await api("POST", "/whitelist", { name: "Alice_1" })).status).toBe(200);
    expect((await api("POST", "/whitelist/enabled", { enabled: true })).status).toBe(200);
    expect((await power("start")).status).toBeLessThan(300);
    expect(await connect("Alice_1").joined).toBe("joined");
    await inGame("Alice_1");
    // The server lets a client log in, then ends it when the whitelist does not hold its name.
    expect(await connect("Bob_2").ended).toContain("You are not white-listed on this server!");
    expect(await (await api("POST", "/whitelist", { name: "Bob_2" })).json()).toEqual({ changed: true });
    connect("Bob_2");
    await inGame("Bob_2");
  }, 60_000);

  test("a kick through the API disconnects the client with its reason", async () => {
    expect((await api("POST", "/whitelist", { name: "Carol_3" })).status).toBe(200);
    const again = connect("Carol_3");
    await inGame("Carol_3");
    expect((await api("POST", "/Carol_3/kick", { reason: "back in five" })).status).toBe(204);
    expect(await again.ended).toContain("back in five");
    expect(await errorCode(await api("POST", "/Carol_3/kick", {}))).toBe("ErrPlayerCommandRefused");
  }, 60_000);
});

const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;
