// The live socket through the panel: a user receives and may send only what their flags allow.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAs } from "./helpers/app";
import { eventually, type SocketMessage } from "./helpers/node";
import { jsonInit, servedPanelWithServer, type PanelWithNode, type ServedPanel } from "./helpers/panel-node";

let ctx: PanelWithNode;
let server: ServedPanel["server"];
let id: string;
let rig: ServedPanel;

beforeAll(async () => {
  rig = await servedPanelWithServer("live");
  ({ ctx, server, id } = rig);
});
afterAll(() => rig.stop());

async function userWith(flags: Record<string, boolean>) {
  const user = await loginAs(ctx.panel.db, []);
  await ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", flags) });
  return user;
}

function connect(token: string, origin?: string): Promise<{ ws: WebSocket; messages: SocketMessage[] }> {
  const headers: Record<string, string> = { cookie: `kiln=${token}`, host: `127.0.0.1:${server.port}` };
  if (origin) headers.origin = origin;
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/proxy/daemon/socket/${id}`, { headers } as any);
  const messages: SocketMessage[] = [];
  ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
  return new Promise((resolve, reject) => {
    ws.onopen = () => resolve({ ws, messages });
    ws.onerror = () => reject(new Error("socket refused"));
  });
}

const consoleText = (messages: SocketMessage[]) =>
  messages.filter((m) => m.type === "console").map((m) => (Array.isArray(m.data.logs) ? m.data.logs.join("") : m.data.logs)).join("");

describe("socket proxy", () => {
  test("console lines reach only users with viewServerConsole; commands need sendServerConsole", async () => {
    const watcher = await userWith({ viewServerConsole: true });
    const statsOnly = await userWith({ viewServerStats: true, startServer: true });
    const sender = await userWith({ sendServerConsole: true });
    const w = await connect(watcher.token);
    const s = await connect(statsOnly.token);
    const c = await connect(sender.token);
    try {
      // Everyone who sees the server gets its status.
      await eventually(() => [w, s, c].every((x) => x.messages.some((m) => m.type === "status")), 5000, "status on open");
      s.ws.send(JSON.stringify({ type: "start" }));
      await eventually(() => consoleText(w.messages).includes("hello world"), 10_000, "console output to the watcher");

      c.ws.send(JSON.stringify({ type: "console", data: { command: "ping-from-sender" } }));
      await eventually(() => consoleText(w.messages).includes("got ping-from-sender"), 5000, "the command's answer");

      w.ws.send(JSON.stringify({ type: "console", data: { command: "not-allowed" } }));
      await eventually(() => w.messages.some((m) => m.error && m.error.code === "ErrNoPermission"), 5000, "refusal");
      s.ws.send(JSON.stringify({ type: "stat" }));
      await eventually(() => s.messages.some((m) => m.type === "stat"), 5000, "a stat");
      s.ws.send(JSON.stringify({ type: "replay", data: { since: 0 } }));
      w.ws.send(JSON.stringify({ type: "stat" }));
      await eventually(() => s.messages.filter((m) => m.error).length >= 1 && w.messages.filter((m) => m.error).length >= 2, 5000, "refusals");
      await Bun.sleep(300);

      // The stats-only user and the sender saw not one console line; the watcher got no stats.
      expect(s.messages.filter((m) => m.type === "console")).toEqual([]);
      expect(c.messages.filter((m) => m.type === "console")).toEqual([]);
      expect(w.messages.filter((m) => m.type === "stat")).toEqual([]);
      expect(consoleText(w.messages)).not.toContain("got not-allowed");
    } finally {
      for (const x of [w, s, c]) x.ws.close();
    }
  }, 30_000);

  test("no socket without access, without a login, or from another site", async () => {
    const stranger = await loginAs(ctx.panel.db, []);
    await expect(connect(stranger.token)).rejects.toThrow();
    await expect(connect("not-a-session")).rejects.toThrow();
    await expect(connect(ctx.admin.token, "https://evil.example")).rejects.toThrow();
    const ok = await connect(ctx.admin.token, `http://127.0.0.1:${server.port}`);
    ok.ws.close();
  });
});
