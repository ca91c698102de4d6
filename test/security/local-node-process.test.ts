// The local node in a process of its own (KILN_LOCAL_NODE=process) against the servers it runs
// and against whoever may run `kiln` on the machine. The node talks to its panel over an IPC
// socket (it hands over CurseForge's key on request): a server must not inherit that socket or
// its variable, and must not read the panel's database or the node's secret, nor signal either
// process; the same as in the panel's process. `kiln local-node` started by hand has no channel
// and refuses to start a node.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startPanelWithNodeProcess, type PanelWithNodeProcess } from "../helpers/node-process-panel";
import { echoTemplate, eventually } from "../helpers/node";
import { runKiln } from "../helpers/process";

let panel: PanelWithNodeProcess;
beforeAll(async () => {
  panel = await startPanelWithNodeProcess();
}, 60_000);
afterAll(() => {
  panel.kiln.proc.kill("SIGKILL");
});

/** What a server's own command tries; each line says blocked, or names what it got. */
function attackScript(): string {
  const database = join(panel.data, "kiln.db");
  const secret = join(panel.data, "node", "secret");
  return [
    // Its console is sockets on 0, 1 and 2 (Bun's pipes); the channel would be any other.
    "ls -l /proc/self/fd 2>&1 | grep -v ' [012] -> ' | grep -q socket && echo SOCKET-INHERITED || echo blocked socket",
    "env | grep -q NODE_CHANNEL && echo CHANNEL-VARIABLE || echo blocked variable",
    `cat ${database} > /dev/null 2>&1 && echo DATABASE-READ || echo blocked database`,
    `cat ${secret} > /dev/null 2>&1 && echo SECRET-READ || echo blocked secret`,
    `kill -0 ${panel.kiln.proc.pid} 2> /dev/null && echo PANEL-SIGNALLED || echo blocked panel`,
    `kill -0 ${panel.nodePid} 2> /dev/null && echo NODE-SIGNALLED || echo blocked node`,
    "echo attack-done",
  ].join("\n");
}

describe("a server on the local node in its own process", () => {
  test("inherits no channel to the panel, reads nothing of the panel's, signals neither process", async () => {
    const template = { ...echoTemplate({ command: "sh attack.sh" }), install: [{ type: "writefile", target: "attack.sh", text: attackScript() }] };
    expect((await panel.call("PUT", "/api/templates/attack", template)).status).toBe(200);
    const nodes = (await (await panel.call("GET", "/api/nodes")).json()) as { id: number }[];
    const made = await panel.call("POST", "/api/servers", { name: "attack", node: nodes[0]!.id, template: "attack", environment: { type: "standard" } });
    expect(made.status).toBe(201);
    const id = ((await made.json()) as { id: string }).id;
    const consoleText = async () => ((await (await panel.call("GET", `/proxy/daemon/server/${id}/console`)).json()) as { logs: string[] }).logs.join("");
    await eventually(async () => (await panel.call("POST", `/proxy/daemon/server/${id}/start?wait=true`)).ok, 20_000, "the server starts");
    await eventually(async () => (await consoleText()).includes("attack-done"), 20_000, "the attack to finish");
    const out = await consoleText();
    for (const what of ["socket", "variable", "database", "secret", "panel", "node"]) expect(out).toContain(`blocked ${what}`);
  }, 60_000);
});

test("`kiln local-node` started by hand, without the panel's channel, refuses and starts nothing", () => {
  const run = runKiln(["local-node"]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("kiln daemon");
  expect(run.stdout).not.toContain("listening");
});
