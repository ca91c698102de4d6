import { describe, expect, test } from "bun:test";
import { ConsoleBuffer } from "./console-buffer";
import { consoleAnswer } from "./console-answer";

describe("GET …/console?tail=", () => {
  test("keeps only the newest characters of the answer, cutting the oldest kept entry at its start", () => {
    const buffer = new ConsoleBuffer();
    for (let i = 0; i < 10; i++) buffer.write(`line ${i}\n`);
    const whole = consoleAnswer(buffer, undefined).logs.join("");
    const tail = consoleAnswer(buffer, undefined, Date.now(), "10").logs.join("");
    expect(tail).toBe(whole.slice(-10));
    expect(tail).toBe(" 8\nline 9\n");
  });

  test("a tail larger than the answer, none, or one that is no positive whole number gives the whole answer", () => {
    const buffer = new ConsoleBuffer();
    for (let i = 0; i < 5; i++) buffer.write(`line ${i}\n`);
    const whole = consoleAnswer(buffer, undefined).logs;
    for (const tail of ["1000000", undefined, "0", "-5", "abc", "1.5", "1e400"]) {
      expect(consoleAnswer(buffer, undefined, Date.now(), tail).logs).toEqual(whole);
    }
  });

  test("with ?time= it cuts what that time answers, and the epochs are the same as without it", () => {
    const buffer = new ConsoleBuffer();
    buffer.write("a".repeat(100));
    const now = Date.now() + 5;
    const plain = consoleAnswer(buffer, "0", now);
    const cut = consoleAnswer(buffer, "0", now, "7");
    expect(cut.logs.join("")).toBe("aaaaaaa");
    expect(cut.epochMs).toBe(plain.epochMs);
    expect(cut.epoch).toBe(plain.epoch);
  });
});
