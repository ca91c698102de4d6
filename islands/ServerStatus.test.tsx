// The status dot and the socket warning: grey on the server render, green/red once the real
// (Bun.serve) socket reports, and, when reconnecting gives up, the alert placed below the header.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server, ServerWebSocket } from "bun";
import { Window } from "happy-dom";
import { renderToString } from "react-dom/server";
import { hydrateRoot } from "react-dom/client";
import { makeTranslate } from "../core/i18n/translate";
import en from "../locales/en.json";
import { I18nProvider } from "./lib/i18n";
import island, { type ServerStatusProps } from "./ServerStatus";
import { serverLive } from "./lib/server-live";

let server: Server<undefined>;
let window: Window;
let socket: ServerWebSocket<undefined> | undefined;

async function until(check: () => boolean, ms = 3000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

function element(props: ServerStatusProps) {
  return (
    <I18nProvider t={makeTranslate(en)}>
      <island.component {...props} />
    </I18nProvider>
  );
}

/** A page header holding the island, as the server page renders it. */
function mount(props: ServerStatusProps) {
  const main = window.document.createElement("main");
  main.innerHTML = `<div class="page-header"><h1><span>My server</span><span id="dot">${renderToString(element(props))}</span></h1></div><p id="after">tabs</p>`;
  window.document.body.append(main);
  hydrateRoot(main.querySelector("#dot") as unknown as Element, element(props));
  return main;
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
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req, srv) {
      const path = new URL(req.url).pathname;
      if (path.startsWith("/proxy/daemon/socket/down")) return new Response("unavailable", { status: 503 });
      if (path.startsWith("/proxy/daemon/socket/") && srv.upgrade(req)) return undefined;
      if (path.endsWith("/status")) return Response.json({ running: false, installing: false });
      return new Response(null, { status: 404 });
    },
    websocket: {
      open(ws) {
        socket = ws;
        ws.send(JSON.stringify({ type: "status", data: { running: true, installing: false } }));
      },
      message() {},
    },
  });
  window = new Window({ url: `http://127.0.0.1:${server.port}/server/st1` });
  window.document.body.innerHTML = `<div id="toasts"></div>`;
  Object.assign(globalThis, { window, document: window.document, HTMLElement: window.HTMLElement, Node: window.Node });
  Object.defineProperty(globalThis, "location", { value: new URL(`http://127.0.0.1:${server.port}/server/st1`), configurable: true, writable: true });
});

afterAll(async () => {
  serverLive("st1").close();
  serverLive("downStatus").close();
  server.stop(true);
  await window.happyDOM.abort();
  window.close();
  restoreGlobals();
});

describe("ServerStatus", () => {
  test("server render: grey, labelled unknown", () => {
    const html = renderToString(element({ serverId: "st1" }));
    expect(html).toContain("is-unknown");
    expect(html).toContain('aria-label="Status unknown"');
    expect(html).toContain('title="Status unknown"');
    expect(html).not.toContain('role="alert"');
  });

  test("hydrated: green when the server reports running, red when it stops", async () => {
    const main = mount({ serverId: "st1" });
    const dot = () => main.querySelector(".server-status-dot")!;
    await until(() => dot().classList.contains("is-online"), 3000, "online");
    expect(dot().getAttribute("aria-label")).toBe("Online");
    socket!.send(JSON.stringify({ type: "status", data: { running: false, installing: false } }));
    await until(() => dot().classList.contains("is-offline"), 2000, "offline");
    expect(dot().getAttribute("title")).toBe("Offline");
    main.remove();
  });

  test("when the socket gives up, a warning alert appears right below the page header", async () => {
    const main = mount({ serverId: "downStatus" });
    // The status still comes over HTTP meanwhile.
    await until(() => main.querySelector(".server-status-dot.is-offline") !== null, 7000, "status over HTTP");
    await until(() => main.querySelector('[role="alert"]') !== null, 10_000, "alert");
    const alert = main.querySelector('[role="alert"]')!;
    expect(alert.textContent).toBe(en["errors.ErrSocketFailed"]);
    expect(alert.parentElement!.previousElementSibling!.className).toBe("page-header");
    expect(main.querySelector(".page-header [role=alert]")).toBeNull();
  }, 20_000);
});
