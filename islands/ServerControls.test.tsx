// The control bar: its server render (every permitted button, each in a form that works without
// script) and, hydrated in happy-dom against a real Bun.serve socket, buttons following the
// status, restart loading until the server went down and came back, and installing disabling all.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server, ServerWebSocket } from "bun";
import { Window } from "happy-dom";
import { renderToString } from "react-dom/server";
import { hydrateRoot } from "react-dom/client";
import { makeTranslate } from "../core/i18n/translate";
import type { LiveMessage } from "../core/live";
import en from "../locales/en.json";
import { I18nProvider } from "./lib/i18n";
import island, { type ServerControlsProps } from "./ServerControls";
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

function element(props: ServerControlsProps) {
  return (
    <I18nProvider t={makeTranslate(en)}>
      <island.component {...props} />
    </I18nProvider>
  );
}

const status = (running: boolean, installing = false) => socket!.send(JSON.stringify({ type: "status", data: { running, installing } }));

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
      if (new URL(req.url).pathname.startsWith("/proxy/daemon/socket/") && srv.upgrade(req)) return undefined;
      return new Response(null, { status: 404 });
    },
    websocket: {
      open(ws) {
        socket = ws;
        status(true);
      },
      message(_ws, raw) {
        received.push(JSON.parse(String(raw)));
      },
    },
  });
  window = new Window({ url: `http://127.0.0.1:${server.port}/server/p1` });
  Object.assign(globalThis, { window, document: window.document, HTMLElement: window.HTMLElement, Node: window.Node });
  Object.defineProperty(globalThis, "location", { value: new URL(`http://127.0.0.1:${server.port}/server/p1`), configurable: true, writable: true });
});

afterAll(async () => {
  serverLive("p1").close();
  server.stop(true);
  await window.happyDOM.abort();
  window.close();
  restoreGlobals();
});

describe("ServerControls", () => {
  test("server render: every permitted button, each in its own form, with its hotkey", () => {
    const html = renderToString(element({ serverId: "p1", canStart: true, canStop: true, canInstall: true }));
    for (const action of ["start", "restart", "stop", "kill", "install"]) expect(html).toContain(`action="/server/p1/power/${action}"`);
    for (const key of ["r r", "r s", "r k", "r i"]) expect(html).toContain(`data-hotkey="${key}"`);
    expect(html).toContain(">Start<");
    const limited = renderToString(element({ serverId: "p1", canStart: true, canStop: false, canInstall: false }));
    expect(limited).toContain("/power/start");
    expect(limited).toContain("/power/restart");
    expect(limited).not.toContain("/power/stop");
    expect(limited).not.toContain("/power/kill");
    expect(limited).not.toContain("/power/install");
  });

  test("hydrated: buttons follow the status; restart loads until down and up again; installing disables", async () => {
    const props: ServerControlsProps = { serverId: "p1", canStart: true, canStop: true, canInstall: true };
    const container = window.document.createElement("div");
    container.innerHTML = renderToString(element(props));
    window.document.body.append(container);
    hydrateRoot(container as unknown as Element, element(props));
    const actions = () => [...container.querySelectorAll("button[data-action]")].map((b) => b.getAttribute("data-action")!);
    const button = (action: string) => container.querySelector(`button[data-action="${action}"]`) as unknown as HTMLButtonElement;

    // Running: no Start.
    await until(() => !actions().includes("start"), 3000, "status applied");
    expect(actions()).toEqual(["restart", "stop", "kill", "install"]);

    button("restart").click();
    await until(() => received.some((m) => m.type === "restart"), 2000, "restart sent");
    expect(button("restart").getAttribute("aria-busy")).toBe("true");
    expect(button("restart").disabled).toBe(true);
    status(false);
    await Bun.sleep(100);
    // Down in the middle of a restart: still loading, and Start does not take its place.
    expect(actions()).toEqual(["restart", "stop", "kill", "install"]);
    expect(button("restart").getAttribute("aria-busy")).toBe("true");
    status(true);
    await until(() => button("restart").getAttribute("aria-busy") === null, 2000, "restart done");
    expect(button("restart").disabled).toBe(false);

    status(false);
    await until(() => actions().includes("start"), 2000, "stopped");
    expect(actions()).toEqual(["start", "stop", "kill", "install"]);

    status(false, true);
    await until(() => button("start").disabled, 2000, "installing");
    expect(actions().every((a) => button(a).disabled)).toBe(true);
    expect(container.textContent).toContain("Installing");

    // A form submitted after hydration goes over the socket, not to the page route.
    status(false);
    await until(() => !button("start").disabled, 2000, "installed");
    button("start").click();
    await until(() => received.some((m) => m.type === "start"), 2000, "start sent");
  });
});
