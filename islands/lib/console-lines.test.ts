// The console's text model: ANSI → HTML lines with DAEMON chips, the byte cap and trim, and the
// pause/refresh feed behind the "new lines" badge.
import { describe, expect, test } from "bun:test";
import { CONSOLE_BUFFER_CAP, CONSOLE_BUFFER_TRIM, DAEMON_MARKER } from "../../core/live";
import { makeTranslate } from "../../core/i18n/translate";
import { encodeDaemonLine, message } from "../../core/live/daemon-message";
import { english } from "../../locales/english";
import { CONSOLE_REFRESH_MS, ConsoleBuffer, ConsoleFeed, renderLine, renderLog, utf8Length, type ConsoleChanges } from "./console-lines";

/** A translator whose only message is the chip's label. */
const chip = (label: string) => makeTranslate({ "console.daemon": label });

describe("rendering", () => {
  test("ANSI colours become spans with ansi_up classes; reset ends them", () => {
    const html = renderLine("\x1b[31mred\x1b[0m plain \x1b[1;32mbold green", chip("DAEMON"));
    expect(html).toBe('<div class="console-line"><span class="ansi-red-fg">red</span> plain <span style="font-weight:bold" class="ansi-green-fg">bold green</span></div>');
  });

  test("colours do not leak from one line into the next", () => {
    renderLine("\x1b[34mblue without reset", chip("DAEMON"));
    expect(renderLine("next", chip("DAEMON"))).toBe('<div class="console-line">next</div>');
  });

  test("HTML in the output is escaped, never interpreted", () => {
    const html = renderLine(`<script>alert("x")</script> & <b>`, chip("DAEMON"));
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;");
  });

  test("only a line carrying the daemon's message gets a chip; a bare marker is a process's text", () => {
    const line = encodeDaemonLine(message("daemon.installing"), english).trimEnd();
    const t = makeTranslate({ "console.daemon": "DAEMON", "daemon.installing": "Installing server" });
    expect(renderLine(line, t)).toBe('<div class="console-line"><span class="console-chip">DAEMON</span>Installing server</div>');
    // The chip label is translated text: escaped too.
    expect(renderLine(line, makeTranslate({ "console.daemon": "<D>" }))).toContain('<span class="console-chip">&#60;D&#62;</span>');
    // What a process can print: the marker alone, or anywhere else in a line.
    expect(renderLine(`${DAEMON_MARKER}Installing server`, chip("DAEMON"))).toBe('<div class="console-line">[kiln] Installing server</div>');
    expect(renderLine(`say ${DAEMON_MARKER}x`, chip("DAEMON"))).not.toContain("console-chip");
  });

  test("Quake colour codes ^0 to ^7 render as the ANSI colours of the same name; others stay text", () => {
    const html = renderLine("^1Red^7 and ^2green^0! x^8y 2^10", chip("D"));
    expect(html).toBe('<div class="console-line"><span class="ansi-red-fg">Red</span><span class="ansi-white-fg"> and </span><span class="ansi-green-fg">green</span><span class="ansi-black-fg">! x^8y 2</span><span class="ansi-red-fg">0</span></div>');
    // Inside a daemon line they are the daemon's text, said as it is.
    const line = encodeDaemonLine(message("daemon.text", { text: "^1x" }), english).trimEnd();
    expect(renderLine(line, makeTranslate({ "daemon.text": "{text}" }))).toContain(">^1x<");
  });

  test("the daemon's message is said in the reader's language, its values escaped", () => {
    const line = encodeDaemonLine(message("daemon.step.downloading", { url: "<b>x</b>" }), english).trimEnd();
    expect(line).toStartWith(`${DAEMON_MARKER}downloading <b>x</b>\x1b]7701;`);
    const german = makeTranslate({ "console.daemon": "KILN", "daemon.step.downloading": "lade {url} herunter" }, "de");
    expect(renderLine(line, german)).toBe('<div class="console-line"><span class="console-chip">KILN</span>lade &lt;b&gt;x&lt;/b&gt; herunter</div>');
    // Nested messages and plurals: the task line around the step, the count picking the form.
    const nested = encodeDaemonLine(message("daemon.task.line", { task: "nightly", line: message("daemon.backup.removed", { count: 3, max: "5" }) }), english).trimEnd();
    expect(renderLine(nested, german)).toContain("daemon.task.line"); // a key the table lacks shows as the key
    const russian = makeTranslate({ "daemon.task.line": "задача «{task}»: {line}", "daemon.backup.removed#few": "удалено {count} старых копии (предел {max})", "daemon.backup.removed#other": "x" }, "ru");
    expect(renderLine(nested, russian)).toContain("задача «nightly»: удалено 3 старых копии (предел 5)");
  });

  test("a forged or broken message shows the line's own text without a chip, and stray sequences never show", () => {
    const forged = (payload: string) => `${DAEMON_MARKER}plain words\x1b]7701;${payload}\x07`;
    const t = makeTranslate({ "console.daemon": "D", "nav.account": "ACCOUNT", "daemon.ready": "READY" });
    for (const payload of ['{"key":"nav.account"}', '{"key":"daemon.ready","values":{"x":{"y":1}}}', "{not json", '{"key":"daemon.ready","values":[1]}', JSON.stringify(deep(6))]) {
      expect(renderLine(forged(payload), t)).toBe('<div class="console-line">[kiln] plain words</div>');
    }
    expect(renderLine(forged('{"key":"daemon.ready"}'), t)).toContain("READY");
    // A process printing the sequence (or a title) shows neither it nor a chip.
    expect(renderLine('hello\x1b]7701;{"key":"daemon.ready"}\x07 world\x1b]0;title\x07', t)).toBe('<div class="console-line">hello world</div>');
  });

  test("a carriage return starts the line over, as a terminal shows it", () => {
    expect(renderLine("10%\r50%\r100%\r", chip("D"))).toBe('<div class="console-line">100%</div>');
  });

  test("a log renders one element per line; the open last line is shown too", () => {
    const html = renderLog("one\ntwo\n\nthree", chip("D"));
    expect(html.match(/class="console-line"/g)?.length).toBe(4);
    expect(html).toEndWith('<div class="console-line">three</div>');
    expect(renderLog("", chip("D"))).toBe("");
  });
});

describe("buffer", () => {
  test("chunks that split lines are joined; changes name what to redraw", () => {
    const buffer = new ConsoleBuffer();
    buffer.append("hel");
    expect(buffer.takeChanges()).toEqual({ start: 0, from: 0, lines: ["hel"] });
    buffer.append(["lo\nwor", "ld\n"]);
    expect(buffer.takeChanges()).toEqual({ start: 0, from: 0, lines: ["hello", "world"] });
    buffer.append("next\n");
    expect(buffer.takeChanges()).toEqual({ start: 0, from: 2, lines: ["next"] });
    expect(buffer.takeChanges()).toEqual({ start: 0, from: 3, lines: [] });
    expect(buffer.bytes).toBe(utf8Length("hello\nworld\nnext\n"));
  });

  test("the buffer's cap and trim sizes", () => {
    expect([CONSOLE_BUFFER_CAP, CONSOLE_BUFFER_TRIM]).toEqual([4194304, 2097152]);
    expect(new ConsoleBuffer().cap).toBe(4194304);
  });

  test("passing the cap drops the oldest lines down to the trim size, and only then", () => {
    const buffer = new ConsoleBuffer(100, 50);
    const line = "123456789"; // 10 bytes with its newline
    for (let i = 0; i < 10; i++) buffer.append(`${line}\n`);
    expect(buffer.bytes).toBe(100);
    expect(buffer.start).toBe(0);
    buffer.takeChanges();
    buffer.append(`${line}\n`); // 110 > 100: trim to 50
    expect(buffer.bytes).toBe(50);
    expect(buffer.lines.length).toBe(5);
    expect(buffer.start).toBe(6);
    expect(buffer.takeChanges()).toEqual({ start: 6, from: 10, lines: [line] });
  });

  test("bytes are UTF-8 bytes, like the daemon's", () => {
    expect(utf8Length("aé€😀")).toBe(1 + 2 + 3 + 4);
    const buffer = new ConsoleBuffer(20, 10);
    buffer.append("€€€€\n"); // 13 bytes
    buffer.append("€€€\n"); // 10 more: 23 > 20
    expect(buffer.lines).toEqual(["€€€"]);
    expect(buffer.bytes).toBe(10);
  });

  test("a single line longer than the trim size keeps its end", () => {
    const buffer = new ConsoleBuffer(100, 50);
    buffer.append("x".repeat(120) + "END");
    expect(buffer.lines.length).toBe(1);
    expect(buffer.lines[0]!.length).toBe(50);
    expect(buffer.lines[0]).toEndWith("END");
  });
});

function recordingScreen() {
  const applied: ConsoleChanges[] = [];
  const badges: boolean[] = [];
  return { applied, badges, screen: { apply: (c: ConsoleChanges) => applied.push(c), unseen: (u: boolean) => badges.push(u) } };
}

describe("feed", () => {
  test("refreshes at most every 500 ms, batching what arrives meanwhile", async () => {
    expect(CONSOLE_REFRESH_MS).toBe(500);
    const { applied, screen } = recordingScreen();
    const feed = new ConsoleFeed(screen, { refreshMs: 60 });
    feed.push("a\n");
    await Bun.sleep(5);
    expect(applied.length).toBe(1); // a quiet console shows a line at once
    feed.push("b\n");
    feed.push("c\n");
    await Bun.sleep(20);
    expect(applied.length).toBe(1);
    await Bun.sleep(70);
    expect(applied.length).toBe(2);
    expect(applied[1]!.lines).toEqual(["b", "c"]);
    feed.dispose();
  });

  test("paused: no refresh, one badge for new lines; resume clears it and shows everything", async () => {
    const { applied, badges, screen } = recordingScreen();
    const feed = new ConsoleFeed(screen, { refreshMs: 10 });
    feed.push("before\n");
    await Bun.sleep(20);
    expect(applied.length).toBe(1);
    feed.pause();
    expect(feed.unseen).toBe(false);
    feed.push("x\n");
    feed.push("y\n");
    await Bun.sleep(30);
    expect(applied.length).toBe(1);
    expect(feed.unseen).toBe(true);
    expect(badges).toEqual([true]);
    feed.resume();
    expect(feed.unseen).toBe(false);
    expect(badges).toEqual([true, false]);
    expect(applied.length).toBe(2);
    expect(applied[1]!.lines).toEqual(["x", "y"]);
    // Pausing and resuming with nothing new raises no badge.
    feed.pause();
    feed.resume();
    expect(badges).toEqual([true, false]);
    feed.dispose();
  });
});

function deep(levels: number): object {
  return levels === 0 ? { key: "daemon.ready" } : { key: "daemon.text", values: { text: deep(levels - 1) } };
}
