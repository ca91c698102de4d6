// The shared live connection against a real Bun.serve that plays the panel: the socket with its
// status and console pushes, and the HTTP routes the connection falls back to when the socket
// cannot open (actions, console command, stat, status, replay and the polling in between).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Window } from "happy-dom";
import { CONSOLE_POLL_MS, type LiveMessage } from "../../core/live";
import { shellMessages } from "../shell/messages";
import { installDom, messagesAnswer, startFakeLive, until, type FakeLive, type InstalledDom } from "../test-support";
import { serverLive, type ServerLive } from "./server-live";

/** The fake panel: its sockets (those of ids starting with "down" cannot be reached); `http` below is the rest. */
let panel: FakeLive;
/** HTTP calls as "METHOD path?query[ body]". */
const calls: string[] = [];
const contentTypes: string[] = [];
let dom: InstalledDom;
let window: Window;
let consoleEpoch = 1000;

async function http(req: Request, url: URL): Promise<Response> {
  const body = req.method === "POST" ? await req.text() : "";
  calls.push(`${req.method} ${url.pathname}${url.search}${body ? ` ${body}` : ""}`);
  if (req.method === "POST") contentTypes.push(req.headers.get("content-type") ?? "");
  const messages = messagesAnswer(url);
  if (messages) return messages;
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
}

beforeAll(() => {
  panel = startFakeLive({
    http,
    onMessage(message, ws) {
      if (message.type === "stat") ws.send(JSON.stringify({ type: "stat", data: { cpu: 1, memory: 2 } }));
      if (message.type === "kill") ws.send(JSON.stringify({ error: { code: "ErrNoPermission", msg: "no" } }));
    },
  });
  // The browser resolves "/i18n/…" against the page; Bun's fetch needs the origin spelled out.
  dom = installDom(panel.url("/server/x"), { pageFetch: true });
  window = dom.window;
  window.document.body.innerHTML = `<div id="toasts"></div>`;
});

afterAll(async () => {
  panel.stop();
  await dom.restore();
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
    expect(panel.receivedFrom("s1").map((m) => m.type)).toEqual(["stop", "console", "stat"]);
    expect(panel.receivedFrom("s1")[1]).toEqual({ type: "console", command: "say hi" });

    panel.send({ type: "console", data: { logs: "pushed\n", epoch: 42 } }, "s1");
    panel.send({ type: "status", data: { running: false, installing: true } }, "s1");
    await until(() => consoleMessages.length === 1 && live.view.status === "offline", 2000, "push");
    expect(live.view.installing).toBe(true);
    expect(calls.filter((c) => c.includes("/s1/"))).toEqual([]);
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
    panel.send({ type: "console", data: { logs: "a\n", epoch: 1111 } }, "s2");
    await Bun.sleep(50);
    panel.socket("s2")!.close();
    await until(() => live.view.socket !== "open", 2000, "closed");
    await until(() => live.view.socket === "open", 3000, "reopened");
    await until(() => panel.receivedFrom("s2").some((m) => m.type === "replay"), 2000, "replay");
    expect(panel.receivedFrom("s2").find((m) => m.type === "replay")).toEqual({ type: "replay", since: 1111 });
    live.close();
  });

  test("socket not open: everything goes over HTTP, console and status are polled, and giving up warns", async () => {
    const live = serverLive("down1");
    const consoleMessages = collect(live, "console");
    const stats = collect(live, "stat");
    live.subscribe(() => undefined);
    const mine = () => calls.filter((c) => c.includes("/down1/"));

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
    expect(contentTypes).toContain("text/plain;charset=utf-8");

    // The console poll asks from where the last answer ended; the status is polled meanwhile.
    await until(() => mine().includes(`GET /proxy/daemon/server/down1/console?time=${firstEpoch}`), CONSOLE_POLL_MS + 2000, "console poll");
    // The fake records the call before it answers, so the answer may still be on its way.
    await until(() => consoleMessages.length === 2, 2000, "console poll answer");
    expect(consoleMessages[1]!.data.logs).toEqual([`since ${firstEpoch}\n`]);
    expect(mine().filter((c) => c.endsWith("/status")).length).toBeGreaterThan(2);

    // Reconnecting gives up after 5 failed attempts (about 7.5 s): flag and warning toast.
    await until(() => live.view.failed, 10_000, "failed");
    await until(() => window.document.querySelector(".toast.toast-warning") !== null, 2000, "warning toast");
    expect(window.document.querySelector(".toast.toast-warning")!.textContent).toBe((await shellMessages())("errors.ErrSocketFailed"));
    live.close();
  }, 20_000);
});
