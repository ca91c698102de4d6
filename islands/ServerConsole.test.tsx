// The console island: its server render (works without script), then hydrated in happy-dom
// against a real Bun.serve socket: replay on hydrate, lines appearing, pause with its badge, and
// the command form going over the socket.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderToString } from "react-dom/server";
import { DAEMON_MARKER } from "../core/live";
import island, { type ServerConsoleProps } from "./ServerConsole";
import { openServerPage, until, withI18n, type ServerPage } from "./test-support";

let page: ServerPage;

const element = (props: ServerConsoleProps) => withI18n(<island.component {...props} />);

const push = (logs: string) => page.panel.send({ type: "console", data: { logs, epoch: Date.now() } });

beforeAll(() => {
  page = openServerPage("c1", {
    // The replay asked while the socket is still connecting goes over HTTP.
    http: (_req, url) => (url.pathname === "/proxy/daemon/server/c1/console" ? Response.json({ logs: [], epoch: Number(url.searchParams.get("time")) }) : undefined),
  });
});

afterAll(() => page.close());

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
    const { window, dom, panel } = page;
    const container = window.document.createElement("div");
    container.innerHTML = renderToString(element(props));
    window.document.body.append(container);
    await dom.hydrate(container, element(props));
    const log = () => container.querySelector(".server-console-log")!;
    const lines = () => [...log().querySelectorAll(".console-line")].map((l) => l.textContent);
    expect(lines()).toEqual(["first"]);

    await until(() => panel.received.some((m) => m.type === "replay"), 3000, "replay");
    expect(panel.received.find((m) => m.type === "replay")).toEqual({ type: "replay", since: 777 });

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
    await until(() => panel.received.some((m) => m.type === "console"), 2000, "command");
    expect(panel.received.find((m) => m.type === "console")).toEqual({ type: "console", command: "say hello" });
    expect(input.value).toBe("");
  });
});
