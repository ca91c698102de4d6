// The console as triggers see it: whole lines of the server's own output, the daemon's lines left
// out, terminal sequences and CRs removed, long lines and floods bounded.
import { describe, expect, test } from "bun:test";
import { ConsoleBuffer } from "../../servers/console-buffer";
import { message } from "../../../core/live/daemon-message";
import { MAX_TRIGGER_LINE } from "../../../core/tasks/constants";
import { ConsoleLines, LINES_PER_SECOND, visibleLine } from "./console-lines";

const flush = () => Bun.sleep(5);

describe("console lines", () => {
  test("whole lines of process output and network console lines; the daemon's own lines never", async () => {
    const buffer = new ConsoleBuffer();
    const lines = new ConsoleLines(buffer);
    const got: string[] = [];
    const stop = lines.listen((line) => got.push(line));
    buffer.write("first li");
    await flush();
    buffer.write("ne\r\nsecond\n\x1b[32mgreen\x1b[0m text\x1b]0;title\x07\nhalf");
    // A daemon line after a partial one starts a line of its own, ending the partial one.
    buffer.daemon(message("daemon.task.line", { task: "hello", line: message("daemon.task.finished") }));
    buffer.line("from rcon");
    await flush();
    expect(got).toEqual(["first line", "second", "green text", "half", "from rcon"]);
    stop();
    buffer.write("after\n");
    await flush();
    expect(got).toHaveLength(5);
    expect(lines.listening).toBe(false);
  });

  test("a process cannot forge a daemon line to hide a line from triggers", async () => {
    const buffer = new ConsoleBuffer();
    const lines = new ConsoleLines(buffer);
    const got: string[] = [];
    lines.listen((line) => got.push(line));
    buffer.write("[kiln] trigger me\x1b]7701;{\"key\":\"daemon.ready\"}\x07\n");
    await flush();
    expect(got).toHaveLength(1);
    expect(got[0]).toContain("trigger me");
  });

  test("only the start of a long line is looked at, however it arrives", async () => {
    expect(visibleLine("x".repeat(MAX_TRIGGER_LINE * 10))).toHaveLength(MAX_TRIGGER_LINE);
    const buffer = new ConsoleBuffer();
    const lines = new ConsoleLines(buffer);
    const got: string[] = [];
    lines.listen((line) => got.push(line));
    buffer.write(`start${"y".repeat(MAX_TRIGGER_LINE * 3)}`);
    await flush();
    buffer.write(`${"z".repeat(MAX_TRIGGER_LINE * 3)}\nnext\n`);
    await flush();
    expect(got.map((l) => l.length)).toEqual([MAX_TRIGGER_LINE, 4]);
    expect(got[0]!.startsWith("startyyy")).toBe(true);
  });

  test("a flood is looked at up to the line rate in a second; the rest is skipped and said once", () => {
    const buffer = new ConsoleBuffer();
    let now = 1_000_000;
    const lines = new ConsoleLines(buffer, () => now);
    let seen = 0;
    lines.listen(() => seen++);
    lines.push("line\n".repeat(LINES_PER_SECOND + 500));
    expect(seen).toBe(LINES_PER_SECOND);
    expect(lines.skippedTotal).toBe(500);
    now += 1000;
    lines.push("again\n");
    expect(seen).toBe(LINES_PER_SECOND + 1);
    expect(buffer.since(0).logs.join("")).toContain("console triggers skipped 500 lines");
  });

  test("matching that takes too long in a second skips the rest of that second's lines", () => {
    const buffer = new ConsoleBuffer();
    let now = 1_000_000;
    const lines = new ConsoleLines(buffer, () => now);
    let seen = 0;
    lines.listen(() => {
      seen++;
      const until = performance.now() + 30;
      while (performance.now() < until);
    });
    lines.push("slow\n".repeat(20));
    expect(seen).toBeLessThanOrEqual(4);
    now += 1000;
    lines.push("slow\n");
    expect(seen).toBeLessThanOrEqual(5);
  });
});
