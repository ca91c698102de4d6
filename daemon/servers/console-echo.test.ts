// One copy of a line the network console mirrors from the process's output, whichever arrives first.
import { expect, test } from "bun:test";
import { ConsoleEcho, sameLineKey } from "./console-echo";

test("time stamps written differently still make the same line; the text after them decides", () => {
  expect(sameLineKey("[2026-11-28 23:50:08][chat]: hi\r")).toBe("[chat]: hi");
  expect(sameLineKey("[23:50:08][chat]: hi")).toBe("[chat]: hi");
  expect(sameLineKey("2026-11-28T23:50:08 12.345 INF Time: 1")).toBe("INF Time: 1");
  expect(sameLineKey("[chat]: hi")).not.toBe(sameLineKey("[chat]: ho"));
});

test("a console line the process printed before or soon after is dropped; others show, once, in order", async () => {
  const shown: string[] = [];
  const echo = new ConsoleEcho((line) => shown.push(line), 40, 1000);
  echo.processOutput("[2026-01-01 10:00:00][server]: before\n");
  echo.consoleOutput("[10:00:00][server]: before\n\0\0[10:00:01][chat]: after\n\0\0");
  echo.consoleOutput("only on the console\n\n");
  echo.processOutput("[2026-01-01 10:00:01][chat]: af");
  echo.processOutput("ter\n");
  await Bun.sleep(80);
  expect(shown).toEqual(["only on the console"]);
  // A prompt without its newline shows once the wait is over; close shows what is still held.
  echo.consoleOutput("Enter password:");
  await Bun.sleep(80);
  echo.consoleOutput("held\n");
  echo.close();
  expect(shown).toEqual(["only on the console", "Enter password:", "held"]);
});

test("one process line stands for one console copy only", async () => {
  const shown: string[] = [];
  const echo = new ConsoleEcho((line) => shown.push(line), 20, 1000);
  echo.processOutput("tick\n");
  echo.consoleOutput("tick\ntick\n");
  await Bun.sleep(50);
  expect(shown).toEqual(["tick"]);
});
