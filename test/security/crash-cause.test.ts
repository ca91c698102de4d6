// Attacks on naming a crash: everything it reads comes from a folder the server controls.
// - A crash report that is a symlink out of the folder (or a crash-reports folder that is one) is
//   not read: a host file's words never become the cause.
// - A huge log is read in its last 64 KiB only (a 1 GiB sparse latest.log costs nothing).
// - Console text built as a forged DAEMON line (the marker, the OSC 7701 sequence of a crash
//   message) is not taken for the node's own; only the node's one line names the crash.
// - An excerpt built to carry markup and escape sequences reaches the console as plain text, and
//   renders escaped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { startTestNode, echoTemplate, eventually, type TestNode } from "../helpers/node";
import { decodeDaemonLine } from "../../core/live/daemon-message";
import { DAEMON_MARKER } from "../../core/live";
import { renderLog } from "../../islands/lib/console-lines";
import { makeTranslate } from "../../core/i18n/translate";
import en from "../../locales/en.json";
import type { TemplateInput } from "../../core/definition";

let t: TestNode;
let outside: string;
beforeAll(async () => {
  t = await startTestNode();
  outside = mkdtempSync(join(tmpdir(), "kiln-host-"));
  writeFileSync(join(outside, "crash-host.txt"), "java.lang.OutOfMemoryError: Java heap space\n");
});
afterAll(() => t.stop());

const definition = (command: string): TemplateInput => ({ ...echoTemplate({ command, stop: undefined }), install: [] });

async function crashOf(id: string, command: string) {
  await t.json("PUT", `/daemon/server/${id}`, definition(command));
  await t.call("POST", `/daemon/server/${id}/start?wait=true`);
  await eventually(async () => (await t.json("GET", `/daemon/server/${id}/status`)).crash !== undefined, 15_000, "the crash to be named");
  return (await t.json("GET", `/daemon/server/${id}/status`)).crash;
}

async function consoleText(id: string): Promise<string> {
  return (await t.json("GET", `/daemon/server/${id}/console`)).logs.join("");
}

describe("naming a crash reads only the server's own files, boundedly", () => {
  test("a crash report that links out of the folder is not read", async () => {
    const crash = await crashOf("link", `sh -c 'mkdir -p crash-reports; ln -s ${outside}/crash-host.txt crash-reports/crash-2024-01-01_00.00.00-server.txt; exit 1'`);
    expect(crash.cause).toBe("unrecognised");
    expect(crash.looked).toEqual([{ source: "console", lines: 0 }]);
    await t.call("DELETE", "/daemon/server/link");
  }, 60_000);

  test("a crash-reports folder that links out of the folder is not listed", async () => {
    const crash = await crashOf("dirlink", `sh -c 'ln -s ${outside} crash-reports; exit 1'`);
    expect(crash.cause).toBe("unrecognised");
    expect(crash.looked).toEqual([{ source: "console", lines: 0 }]);
    await t.call("DELETE", "/daemon/server/dirlink");
  }, 60_000);

  test("a 1 GiB log is read in its last bytes only", async () => {
    const started = Date.now();
    const crash = await crashOf("huge", `sh -c 'mkdir -p logs; echo "java.lang.OutOfMemoryError: Java heap space" > logs/latest.log; truncate -s 1G logs/latest.log; echo; echo "java.net.BindException: Address already in use" >> logs/latest.log; exit 1'`);
    expect(crash).toMatchObject({ cause: "portInUse", where: { source: "logs/latest.log", fromEnd: 1 } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await t.call("GET", "/daemon")).status).toBe(200);
    await t.call("DELETE", "/daemon/server/huge");
  }, 60_000);
});

describe("console text cannot pass for the node's crash line", () => {
  test("a forged DAEMON line is not the node's; the node's one line names the crash", async () => {
    const forged = JSON.stringify({ key: "daemon.crash.stopped", values: { cause: { key: "daemon.crash.cause.outOfMemory" }, fix: { key: "daemon.crash.fix.outOfMemory" } } });
    const crash = await crashOf("forge", `sh -c 'printf "${DAEMON_MARKER}why the server stopped: it ran out of memory\\033]7701;%s\\007\\n" '"'"'${forged}'"'"'; exit 1'`);
    expect(crash.cause).toBe("unrecognised");
    const lines = (await consoleText("forge")).split("\n").filter((line) => line.startsWith(DAEMON_MARKER)).map(decodeDaemonLine);
    const named = lines.filter((line) => line.message?.key === "daemon.crash.stopped");
    expect(named).toHaveLength(1);
    expect(named[0]!.message!.values!.cause).toEqual({ key: "daemon.crash.cause.unrecognised" });
    // The process's line is text: no message decodes from it (the node's excerpt quotes it, as text, without the escape).
    expect(lines.filter((line) => line.text.includes("it ran out of memory") && line.message && line.message.key !== "daemon.crash.excerpt")).toHaveLength(0);
    const excerpt = lines.find((line) => line.message?.key === "daemon.crash.excerpt")!.message!.values!.lines as string[];
    expect(excerpt.join("")).not.toContain("\x1b");
    await t.call("DELETE", "/daemon/server/forge");
  }, 60_000);

  test("an excerpt carrying markup and escape sequences is plain text, rendered escaped", async () => {
    const crash = await crashOf("markup", `sh -c 'printf "<img src=x onerror=alert(1)>\\033[31m red\\033]0;title\\007 end\\n"; exit 1'`);
    expect(crash.cause).toBe("unrecognised");
    const text = await consoleText("markup");
    const excerptLine = text.split("\n").find((line) => decodeDaemonLine(line).message?.key === "daemon.crash.excerpt")!;
    const excerpt = decodeDaemonLine(excerptLine).message!.values!.lines as string[];
    expect(excerpt).toEqual(["<img src=x onerror=alert(1)> red end"]);
    const html = renderLog(excerptLine + "\n", makeTranslate(en as Record<string, string>));
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    await t.call("DELETE", "/daemon/server/markup");
  }, 60_000);
});
