// The console island: its server render (works without script), then hydrated in happy-dom
// against a real Bun.serve socket: replay on hydrate, lines appearing, pause with its badge, and
// the command form going over the socket.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderToString } from "react-dom/server";
import { encodeDaemonLine, message } from "../core/live/daemon-message";
import { english } from "../locales/english";
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
    const html = renderToString(element({ serverId: "c1", canSend: true, initialLogs: `\x1b[33mwarn\x1b[0m\n${encodeDaemonLine(message("daemon.starting"), english)}<b>`, initialEpoch: 1 }));
    expect(html).toContain('<span class="ansi-yellow-fg">warn</span>');
    expect(html).toMatch(/<span class="console-chip">DAEMON<\/span>[^<]/);
    expect(html).toContain("&lt;b&gt;");
    expect(html).toContain('action="/server/c1/console"');
    expect(html).toMatch(/<input[^>]*name="command"/);
    expect(html).toContain('data-hotkey="c i"');
    expect(html).toContain('data-hotkey="c p"');
    const readOnly = renderToString(element({ serverId: "c1", canSend: false, initialLogs: "", initialEpoch: 1 }));
    expect(readOnly).not.toContain("<form");
  });

  test("hydrated: replays from the page's epoch, shows new lines, pauses with a badge, sends commands", async () => {
    const { panel } = page;
    const container = await page.mount(element({ serverId: "c1", canSend: true, initialLogs: "first\n", initialEpoch: 777 }));
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
    // The sent command is echoed on the console, on its own line.
    await until(() => lines().includes("› say hello"), 2000, "echo");
    container.remove();
  });

  test("hydrated: ↑ and ↓ walk through the commands sent, and back to what was being typed", async () => {
    const { window, panel } = page;
    const container = await page.mount(element({ serverId: "c1", canSend: true, initialLogs: "prompt> ", initialEpoch: 1 }));
    const input = container.querySelector('input[name="command"]') as unknown as HTMLInputElement;
    const send = async (command: string) => {
      const before = panel.received.filter((m) => m.type === "console").length;
      input.value = command;
      (input.form as HTMLFormElement).requestSubmit();
      await until(() => panel.received.filter((m) => m.type === "console").length === before + 1, 2000, `sent ${command}`);
    };
    const key = (name: string) => input.dispatchEvent(new window.KeyboardEvent("keydown", { key: name, bubbles: true }) as unknown as Event);
    // Hydrated once its replay (from this page's epoch) went out.
    await until(() => panel.received.some((m) => m.type === "replay" && m.since === 1), 3000, "replay");
    await send("list");
    await send("save-all");
    // The echo after an open line ("prompt> ") starts a line of its own.
    const lines = () => [...container.querySelectorAll(".console-line")].map((l) => l.textContent);
    await until(() => lines().includes("› save-all"), 2000, "echoes");
    expect(lines().slice(-3)).toEqual(["prompt> ", "› list", "› save-all"]);

    input.value = "half-typ";
    // Each key pressed, and what the field then holds. The previous page load's command (the test
    // above) is there too, and the walk stops at the oldest; ↓ ends at what was being typed.
    const walk: Array<[key: string, value: string]> = [
      ["ArrowUp", "save-all"],
      ["ArrowUp", "list"],
      ["ArrowUp", "say hello"],
      ["ArrowUp", "say hello"],
      ["ArrowDown", "list"],
      ["ArrowDown", "save-all"],
      ["ArrowDown", "half-typ"],
    ];
    for (const [name, value] of walk) {
      key(name);
      expect(input.value).toBe(value);
    }
    // Kept for the browser tab's session: the next page load of this server has it too.
    expect(JSON.parse(window.sessionStorage.getItem("kiln.consoleHistory.c1")!)).toEqual(["say hello", "list", "save-all"]);
    container.remove();
  });
});
