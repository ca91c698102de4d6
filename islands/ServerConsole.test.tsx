// The console island: its server render (works without script), then hydrated in happy-dom
// against a real Bun.serve socket: replay on hydrate, lines appearing, pause with its badge, and
// the command form going over the socket.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server, ServerWebSocket } from "bun";
import { Window } from "happy-dom";
import { renderToString } from "react-dom/server";
import { hydrateRoot } from "react-dom/client";
import { makeTranslate } from "../core/i18n/translate";
import { DAEMON_MARKER, type LiveMessage } from "../core/live";
import en from "../locales/en.json";
import { I18nProvider } from "./lib/i18n";
import island, { type ServerConsoleProps } from "./ServerConsole";
import { serverLive } from "./lib/server-live";

let server: Server<undefined>;
let window: Window;
const received: LiveMessage<string, any>[] = [];
let socket: ServerWebSocket<undefined> | undefined;

async function until(check: () => boolean, ms = 3000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

function element(props: ServerConsoleProps) {
  return (
    <I18nProvider t={makeTranslate(en)}>
      <island.component {...props} />
    </I18nProvider>
  );
}

const push = (logs: string) => socket!.send(JSON.stringify({ type: "console", data: { logs, epoch: Date.now() } }));

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
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req, srv) {
      const url = new URL(req.url);
      if (url.pathname.startsWith("/proxy/daemon/socket/") && srv.upgrade(req)) return undefined;
      // The replay asked while the socket is still connecting goes over HTTP.
      if (url.pathname === "/proxy/daemon/server/c1/console") return Response.json({ logs: [], epoch: Number(url.searchParams.get("time")) });
      return new Response(null, { status: 404 });
    },
    websocket: {
      open(ws) {
        socket = ws;
        ws.send(JSON.stringify({ type: "status", data: { running: true, installing: false } }));
      },
      message(_ws, raw) {
        received.push(JSON.parse(String(raw)));
      },
    },
  });
  window = new Window({ url: `http://127.0.0.1:${server.port}/server/c1` });
  Object.assign(globalThis, { window, document: window.document, HTMLElement: window.HTMLElement, Node: window.Node });
  Object.defineProperty(globalThis, "location", { value: new URL(`http://127.0.0.1:${server.port}/server/c1`), configurable: true, writable: true });
});

afterAll(async () => {
  serverLive("c1").close();
  server.stop(true);
  await window.happyDOM.abort();
  window.close();
  restoreGlobals();
});

describe("ServerConsole", () => {
  test("server render: the log with colours and chips, and a command form that works without script", () => {
    const html = renderToString(element({ serverId: "c1", canSend: true, initialLogs: `\x1b[33mwarn\x1b[0m\n${DAEMON_MARKER}Starting\n<b>`, initialEpoch: 1 }));
    expect(html).toContain('<span class="ansi-yellow-fg">warn</span>');
    expect(html).toContain('<span class="console-chip">DAEMON</span>Starting');
    expect(html).toContain("&lt;b&gt;");
    expect(html).toContain('action="/server/c1/console"');
    expect(html).toMatch(/<input[^>]*name="command"/);
    expect(html).toContain('data-hotkey="c i"');
    expect(html).toContain('data-hotkey="c p"');
    const readOnly = renderToString(element({ serverId: "c1", canSend: false, initialLogs: "", initialEpoch: 1 }));
    expect(readOnly).not.toContain("<form");
  });

  test("hydrated: replays from the page's epoch, shows new lines, pauses with a badge, sends commands", async () => {
    const props: ServerConsoleProps = { serverId: "c1", canSend: true, initialLogs: "first\n", initialEpoch: 777 };
    const container = window.document.createElement("div");
    container.innerHTML = renderToString(element(props));
    window.document.body.append(container);
    hydrateRoot(container as unknown as Element, element(props));
    const log = () => container.querySelector(".server-console-log")!;
    const lines = () => [...log().querySelectorAll(".console-line")].map((l) => l.textContent);
    expect(lines()).toEqual(["first"]);

    await until(() => received.some((m) => m.type === "replay"), 3000, "replay");
    expect(received.find((m) => m.type === "replay")!.data).toEqual({ since: 777 });

    push("second\nthi");
    await until(() => lines().length === 3, 2000, "pushed lines");
    push("rd\n");
    await until(() => lines()[2] === "third", 2000, "open line completed");
    expect(lines()).toEqual(["first", "second", "third"]);

    const pauseButton = container.querySelector('[data-hotkey="c p"]') as unknown as HTMLButtonElement;
    pauseButton.click();
    await until(() => pauseButton.getAttribute("aria-pressed") === "true", 2000, "paused");
    push("while paused\n");
    await until(() => container.querySelector(".server-console-dot") !== null, 2000, "badge");
    await Bun.sleep(600);
    expect(lines()).toEqual(["first", "second", "third"]);
    pauseButton.click();
    await until(() => container.querySelector(".server-console-dot") === null, 2000, "badge cleared");
    expect(lines()).toEqual(["first", "second", "third", "while paused"]);

    const input = container.querySelector('input[name="command"]') as unknown as HTMLInputElement;
    input.value = "say hello";
    (input.form as HTMLFormElement).requestSubmit();
    await until(() => received.some((m) => m.type === "console"), 2000, "command");
    expect(received.find((m) => m.type === "console")!.data).toEqual({ command: "say hello" });
    expect(input.value).toBe("");
  });
});
