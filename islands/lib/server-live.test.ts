// The shared live connection against a real Bun.serve that plays the panel: the socket with its
// status and console pushes, and the HTTP routes the connection falls back to when the socket
// cannot open (actions, console command, stat, status, replay and the polling in between).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server, ServerWebSocket } from "bun";
import { Window } from "happy-dom";
import { CONSOLE_POLL_MS, type LiveMessage } from "../../core/live";
import { REFERENCE } from "../../locales";
import { shellMessages } from "../shell/messages";
import { serverLive, type ServerLive } from "./server-live";

interface FakePanel {
  server: Server<{ id: string }>;
  /** HTTP calls as "METHOD path?query[ body]". */
  calls: string[];
  contentTypes: string[];
  /** What clients sent on the socket, by server id. */
  received: Record<string, LiveMessage<string, any>[]>;
  sockets: Map<string, ServerWebSocket<{ id: string }>>;
}

let panel: FakePanel;
let window: Window;
let consoleEpoch = 1000;
const realFetch = globalThis.fetch;

async function until(check: () => boolean, ms = 3000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

// Globals this file sets; put back afterwards, since test files share one global object.
const GLOBALS = ["window", "document", "HTMLElement", "Node", "location"] as const;
const saved = new Map(GLOBALS.map((k) => [k, Object.getOwnPropertyDescriptor(globalThis, k)]));
function restoreGlobals() {
  for (const [k, d] of saved) {
    if (d) Object.defineProperty(globalThis, k, d);
    else delete (globalThis as Record<string, unknown>)[k];
  }
}

beforeAll(() => {
  const calls: string[] = [];
  const contentTypes: string[] = [];
  const received: FakePanel["received"] = {};
  const sockets = new Map<string, ServerWebSocket<{ id: string }>>();
  const server = Bun.serve<{ id: string }>({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req, srv) {
      const url = new URL(req.url);
      const socket = url.pathname.match(/^\/proxy\/daemon\/socket\/(\w+)$/);
      if (socket) {
        // Ids starting with "down" stand for a panel whose socket cannot be reached.
        if (socket[1]!.startsWith("down")) return new Response("unavailable", { status: 503 });
        if (srv.upgrade(req, { data: { id: socket[1]! } })) return undefined;
        return new Response("upgrade failed", { status: 400 });
      }
      const body = req.method === "POST" ? await req.text() : "";
      calls.push(`${req.method} ${url.pathname}${url.search}${body ? ` ${body}` : ""}`);
      if (req.method === "POST") contentTypes.push(req.headers.get("content-type") ?? "");
      if (url.pathname === "/i18n/messages") {
        const prefixes = url.searchParams.getAll("prefix");
        return Response.json(Object.fromEntries(Object.entries(REFERENCE).filter(([k]) => prefixes.some((p) => k.startsWith(p)))));
      }
      const rest = url.pathname.replace(/^\/proxy\/daemon\/server\/\w+/, "");
      if (req.method === "GET" && rest === "/status") return Response.json({ running: false, installing: true });
      if (req.method === "GET" && rest === "/stats") return Response.json({ cpu: 12.5, memory: 2048 });
      if (req.method === "GET" && rest === "/console") {
        consoleEpoch += 1000;
        return Response.json({ logs: [`since ${url.searchParams.get("time")}\n`], epoch: consoleEpoch });
      }
      if (req.method === "POST" && rest === "/console") return new Response(null, { status: 204 });
      if (req.method === "POST" && /^\/(start|stop|kill|restart|install)$/.test(rest)) return new Response(null, { status: 202 });
      return Response.json({ error: { code: "ErrGeneric", msg: "not found" } }, { status: 404 });
    },
    websocket: {
      open(ws) {
        sockets.set(ws.data.id, ws);
        ws.send(JSON.stringify({ type: "status", data: { running: true, installing: false } }));
      },
      message(ws, raw) {
        const message = JSON.parse(String(raw)) as LiveMessage<string, any>;
        (received[ws.data.id] ??= []).push(message);
        if (message.type === "stat") ws.send(JSON.stringify({ type: "stat", data: { cpu: 1, memory: 2 } }));
        if (message.type === "kill") ws.send(JSON.stringify({ type: "error", data: { code: "ErrNoPermission", msg: "no" } }));
      },
      close(ws) {
        if (sockets.get(ws.data.id) === ws) sockets.delete(ws.data.id);
      },
    },
  });
  panel = { server, calls, contentTypes, received, sockets };
  window = new Window({ url: `http://127.0.0.1:${server.port}/server/x` });
  window.document.body.innerHTML = `<div id="toasts"></div>`;
  Object.assign(globalThis, { document: window.document });
  Object.defineProperty(globalThis, "location", { value: new URL(`http://127.0.0.1:${server.port}/server/x`), configurable: true, writable: true });
  // The browser resolves "/i18n/…" against the page; Bun's fetch needs the origin spelled out.
  globalThis.fetch = ((input: string | URL, init?: RequestInit) => realFetch(new URL(String(input), location.href), init)) as typeof fetch;
});

afterAll(async () => {
  panel.server.stop(true);
  await window.happyDOM.abort();
  window.close();
  globalThis.fetch = realFetch;
  restoreGlobals();
});

function collect(live: ServerLive, type: string): LiveMessage<string, any>[] {
  const messages: LiveMessage<string, any>[] = [];
  live.on(type, (m) => messages.push(m));
  return messages;
}

describe("server live connection", () => {
  test("one connection per server id; status arrives on open and actions go over the socket", async () => {
    const live = serverLive("s1");
    expect(serverLive("s1")).toBe(live);
    expect(live.view.status).toBe("unknown");
    let changes = 0;
    live.subscribe(() => changes++);
    await until(() => live.view.status === "online" && live.view.socket === "open", 3000, "open and online");
    expect(changes).toBeGreaterThan(0);

    const stats = collect(live, "stat");
    const consoleMessages = collect(live, "console");
    expect(await live.send("stop")).toBe(true);
    await live.send("console", { command: "say hi" });
    await live.send("stat");
    await until(() => stats.length === 1, 2000, "stat answer");
    expect(stats[0]!.data).toEqual({ cpu: 1, memory: 2 });
    expect(panel.received.s1!.map((m) => m.type)).toEqual(["stop", "console", "stat"]);
    expect(panel.received.s1![1]!.data).toEqual({ command: "say hi" });

    panel.sockets.get("s1")!.send(JSON.stringify({ type: "console", data: { logs: "pushed\n", epoch: 42 } }));
    panel.sockets.get("s1")!.send(JSON.stringify({ type: "status", data: { running: false, installing: true } }));
    await until(() => consoleMessages.length === 1 && live.view.status === "offline", 2000, "push");
    expect(live.view.installing).toBe(true);
    expect(panel.calls.filter((c) => c.includes("/s1/"))).toEqual([]);
    live.close();
  });

  test("a refused socket message is reported and reaches error handlers", async () => {
    const live = serverLive("s3");
    const errors = collect(live, "error");
    await until(() => live.view.socket === "open");
    await live.send("kill");
    await until(() => errors.length === 1, 2000, "error message");
    expect(errors[0]!.data.code).toBe("ErrNoPermission");
    await until(() => window.document.querySelector(".toast-error") !== null, 2000, "error toast");
    // The shell's error texts are loaded once per page (here: per test process, maybe from another
    // file's server), so the expected text comes from the same table; alone it is the English.
    const t = await shellMessages();
    expect(window.document.querySelector(".toast-error")!.textContent).toBe(t("errors.ErrNoPermission"));
    live.close();
  });

  test("after the socket comes back, the console replays from the last epoch it saw", async () => {
    const live = serverLive("s2");
    collect(live, "console");
    await until(() => live.view.socket === "open");
    panel.sockets.get("s2")!.send(JSON.stringify({ type: "console", data: { logs: "a\n", epoch: 1111 } }));
    await Bun.sleep(50);
    panel.sockets.get("s2")!.close();
    await until(() => live.view.socket !== "open", 2000, "closed");
    await until(() => live.view.socket === "open", 3000, "reopened");
    await until(() => (panel.received.s2 ?? []).some((m) => m.type === "replay"), 2000, "replay");
    expect(panel.received.s2!.find((m) => m.type === "replay")!.data).toEqual({ since: 1111 });
    live.close();
  });

  test("socket not open: everything goes over HTTP, console and status are polled, and giving up warns", async () => {
    const live = serverLive("down1");
    const consoleMessages = collect(live, "console");
    const stats = collect(live, "stat");
    live.subscribe(() => undefined);
    const mine = () => panel.calls.filter((c) => c.includes("/down1/"));

    await live.send("replay", { since: 5 });
    await until(() => consoleMessages.length === 1, 2000, "replay over HTTP");
    expect(consoleMessages[0]!.data.logs).toEqual(["since 5\n"]);
    const firstEpoch = consoleMessages[0]!.data.epoch as number;

    expect(await live.send("start")).toBe(true);
    expect(await live.send("console", { command: "say hi" })).toBe(true);
    await live.send("stat");
    expect(stats.map((m) => m.data)).toEqual([{ cpu: 12.5, memory: 2048 }]);
    await live.send("status");
    expect(live.view.status).toBe("offline");
    expect(live.view.installing).toBe(true);
    // (After the start, the status is also polled quickly: left out of the order check.)
    expect(mine().filter((c) => !c.endsWith("/status")).slice(0, 4)).toEqual([
      "GET /proxy/daemon/server/down1/console?time=5",
      "POST /proxy/daemon/server/down1/start?wait=false",
      "POST /proxy/daemon/server/down1/console say hi",
      "GET /proxy/daemon/server/down1/stats",
    ]);
    expect(mine()).toContain("GET /proxy/daemon/server/down1/status");
    expect(panel.contentTypes).toContain("text/plain;charset=utf-8");

    // The console poll asks from where the last answer ended; the status is polled meanwhile.
    await until(() => mine().includes(`GET /proxy/daemon/server/down1/console?time=${firstEpoch}`), CONSOLE_POLL_MS + 2000, "console poll");
    expect(consoleMessages.length).toBe(2);
    expect(mine().filter((c) => c.endsWith("/status")).length).toBeGreaterThan(2);

    // Reconnecting gives up after 5 failed attempts (about 7.5 s): flag and warning toast.
    await until(() => live.view.failed, 10_000, "failed");
    await until(() => window.document.querySelector(".toast.toast-warning") !== null, 2000, "warning toast");
    expect(window.document.querySelector(".toast.toast-warning")!.textContent).toBe((await shellMessages())("errors.ErrSocketFailed"));
    live.close();
  }, 20_000);
});
