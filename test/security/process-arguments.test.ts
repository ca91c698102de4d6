// A server's variables (a console password, an API key) are its environment. Every local user on
// the node can read every process's command line (/proc/<pid>/cmdline), so while a sandboxed
// server runs, no process of the node's may carry a variable's value in its arguments: not
// bubblewrap, which runs as long as the server, nor anything else.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { echoTemplate, startTestNode, type TestNode } from "../helpers/node";
import { partAvailable } from "../helpers/require-part";

const hasBwrap = partAvailable("bubblewrap (bwrap)", () => Bun.which("bwrap") !== null);
let node: TestNode;
beforeAll(async () => {
  if (hasBwrap) node = await startTestNode({ isolation: { mode: "required" } });
});
afterAll(() => node?.stop());

/** The command lines of every process now, but this test's own. */
function commandLines(): string[] {
  const lines: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)) {
    try {
      lines.push(readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "));
    } catch {
      // gone meanwhile
    }
  }
  return lines;
}

describe.skipIf(!hasBwrap)("a running server's variables", () => {
  test("are in no process's command line", async () => {
    const secret = `S3cret-${crypto.randomUUID()}`;
    const template = echoTemplate({ command: "sleep 30", environmentVars: { RCON_PASSWORD: "${password}" } });
    template.data = { ...template.data, password: { display: "Password", type: "string", value: secret, required: false, userEdit: false } };
    await node.json("PUT", "/daemon/server/argv1", { ...template, install: [] });
    await node.json("POST", "/daemon/server/argv1/start?wait=true");
    try {
      await Bun.sleep(500);
      const holding = commandLines().filter((line) => line.includes(secret));
      expect(holding).toEqual([]);
      // The value did reach the server's environment (the check above could fail).
      const environ = readdirSync("/proc").filter((n) => /^\d+$/.test(n)).some((pid) => {
        try {
          return readFileSync(`/proc/${pid}/environ`, "utf8").includes(`RCON_PASSWORD=${secret}`);
        } catch {
          return false;
        }
      });
      expect(environ).toBe(true);
    } finally {
      await node.call("POST", "/daemon/server/argv1/kill?wait=true");
    }
  }, 30_000);
});
