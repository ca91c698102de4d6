import { describe, expect, test } from "bun:test";
import { ConsoleBuffer } from "./console-buffer";
import { OutputThrottle } from "./output-throttle";
import { CrashGuard } from "./crash-guard";
import { decodeDaemonLine, message } from "../../core/live/daemon-message";

describe("console buffer", () => {
  test("over the cap, the oldest entries go until the buffer is at the trim size", () => {
    const buffer = new ConsoleBuffer(1000, 500);
    for (let i = 0; i < 11; i++) buffer.write(`${String(i).padStart(2, "0")}${"x".repeat(98)}`);
    expect(buffer.size).toBeLessThanOrEqual(500);
    const text = buffer.since(0).logs.join("");
    expect(text.startsWith("06")).toBe(true);
    expect(text).toContain("10");
  });

  test("since() returns what was written at or after the epoch; daemon lines are marked", async () => {
    const buffer = new ConsoleBuffer();
    buffer.write("old\n");
    await Bun.sleep(5);
    const { epoch } = buffer.since(0);
    await Bun.sleep(5);
    buffer.daemon(message("daemon.installing"));
    const [line] = buffer.since(epoch).logs;
    expect(line).toStartWith("[kiln] installing the server\x1b]7701;");
    expect(decodeDaemonLine(line!.trimEnd())).toEqual({ text: "[kiln] installing the server", message: { key: "daemon.installing" } });
  });

  test("listeners get what arrived in one turn of the event loop as one message", async () => {
    const buffer = new ConsoleBuffer();
    const got: string[] = [];
    buffer.subscribe((text) => got.push(text));
    buffer.write("a");
    buffer.write("b");
    await Bun.sleep(5);
    buffer.write("c");
    await Bun.sleep(5);
    expect(got).toEqual(["ab", "c"]);
  });
});

describe("output throttle", () => {
  test("a reader over the budget is asked to wait; one that cannot wait has output dropped and reported", () => {
    const delivered: number[] = [];
    const dropped: number[] = [];
    const throttle = new OutputThrottle((c) => delivered.push(c.length), (n) => dropped.push(n), 1000, 1000);
    expect(throttle.write(new Uint8Array(500))).toBeUndefined();
    expect(throttle.write(new Uint8Array(600))).toBeInstanceOf(Promise);
    // Ignoring the waits (a pty): past one burst of debt, chunks are dropped.
    for (let i = 0; i < 5; i++) void throttle.write(new Uint8Array(600));
    throttle.finish();
    expect(delivered.reduce((a, b) => a + b, 0)).toBeLessThan(3000);
    expect(dropped.length).toBe(1);
    expect(dropped[0]).toBeGreaterThan(0);
  });
});

describe("crash guard", () => {
  test("allows restarts until the limit within the window, then again after it", () => {
    const guard = new CrashGuard(3, 60_000);
    expect(guard.allowRestart(0)).toBe(true);
    expect(guard.allowRestart(1000)).toBe(true);
    expect(guard.allowRestart(2000)).toBe(false);
    expect(guard.allowRestart(70_000)).toBe(true);
  });
});
