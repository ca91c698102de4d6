// `kiln panel` with KILN_LOCAL_NODE=process: the local node is a process of the panel's own
// (`kiln local-node`), reached over loopback like any node. It runs servers; it reads the
// panel's CurseForge key at each install that needs one; killed, it is started again at the same
// address; the panel stopped or killed, it stops with its servers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { startPanelWithNodeProcess, type PanelWithNodeProcess } from "./helpers/node-process-panel";
import { echoTemplate, eventually } from "./helpers/node";
import { descendants } from "./helpers/process-tree";
import { API_KEY, startCurseForgeFixture, type CurseForgeFixture } from "./helpers/curseforge-fixture";

let curse: CurseForgeFixture;
beforeAll(() => {
  curse = startCurseForgeFixture();
});
afterAll(() => curse.stop());

const parentOf = (pid: number) => Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("the local node in a process of its own", () => {
  let panel: PanelWithNodeProcess;
  let serverId: string;
  beforeAll(async () => {
    panel = await startPanelWithNodeProcess({ sources: curse.sources });
  }, 60_000);
  afterAll(() => {
    panel.kiln.proc.kill("SIGKILL");
  });

  test("it is the panel's child, on loopback, and runs a server the panel made", async () => {
    expect(panel.nodeUrl).toStartWith("http://127.0.0.1:");
    expect(panel.nodePid).not.toBe(panel.kiln.proc.pid);
    expect(parentOf(panel.nodePid)).toBe(panel.kiln.proc.pid);
    expect((await panel.call("PUT", "/api/templates/echo", echoTemplate())).status).toBe(200);
    const nodes = (await (await panel.call("GET", "/api/nodes")).json()) as { id: number; privatePort: number }[];
    expect(nodes.map((n) => `http://127.0.0.1:${n.privatePort}`)).toEqual([panel.nodeUrl]);
    const made = await panel.call("POST", "/api/servers", { name: "echo", node: nodes[0]!.id, template: "echo", environment: { type: "standard" } });
    expect(made.status).toBe(201);
    serverId = ((await made.json()) as { id: string }).id;
    await eventually(async () => (await panel.call("POST", `/proxy/daemon/server/${serverId}/start?wait=true`)).ok, 20_000, "the server starts");
    await eventually(async () => ((await (await panel.call("GET", `/proxy/daemon/server/${serverId}/status`)).json()) as { running: boolean }).running, 20_000, "the server runs");
  }, 30_000);

  test("an install asks the panel for its CurseForge key: none set, none sent; set, the API gets it", async () => {
    expect((await panel.call("PUT", "/api/templates/cf", { display: "cf", type: "other", run: { command: "true" }, install: [{ type: "curseforge", projectId: "1", fileId: "1" }], supportedEnvironments: [{ type: "standard" }] })).status).toBe(200);
    const nodes = (await (await panel.call("GET", "/api/nodes")).json()) as { id: number }[];
    const made = await panel.call("POST", "/api/servers", { name: "cf", node: nodes[0]!.id, template: "cf", environment: { type: "standard" } });
    expect(made.status).toBe(201);
    const id = ((await made.json()) as { id: string }).id;
    const install = async () => (await panel.call("POST", `/proxy/daemon/server/${id}/install?wait=true`)).text();
    expect(await install()).toContain("no CurseForge API key");
    expect(curse.requests).toEqual([]);
    expect((await panel.call("PUT", "/api/settings/panel.mods.curseforgeKey", { value: API_KEY })).status).toBe(204);
    await install();
    expect(curse.requests.length).toBeGreaterThan(0);
    expect(curse.requests.every((r) => r.key === API_KEY)).toBe(true);
  }, 30_000);

  test("killed, the node is started again at the same address, and its server is there", async () => {
    const before = panel.nodePid;
    process.kill(before, "SIGKILL");
    await eventually(() => /listening on \S+ again \(process (\d+)\)/.test(panel.kiln.output()), 20_000, "the node is started again");
    const again = Number(/listening on (\S+) again \(process (\d+)\)/.exec(panel.kiln.output())![2]);
    expect(again).not.toBe(before);
    expect(parentOf(again)).toBe(panel.kiln.proc.pid);
    expect(/listening on (\S+) again/.exec(panel.kiln.output())![1]).toBe(panel.nodeUrl);
    const status = await panel.call("GET", `/proxy/daemon/server/${serverId}/status`);
    expect(status.status).toBe(200);
    panel.nodePid = again;
  }, 30_000);

  test("the panel stopped, the node stops its server and ends", async () => {
    await eventually(async () => (await panel.call("POST", `/proxy/daemon/server/${serverId}/start?wait=true`)).status < 500, 20_000, "the server starts again");
    await eventually(async () => ((await (await panel.call("GET", `/proxy/daemon/server/${serverId}/status`)).json()) as { running: boolean }).running, 20_000, "the server runs");
    const below = descendants(panel.nodePid);
    expect(below.length).toBeGreaterThan(0);
    panel.kiln.proc.kill("SIGTERM");
    expect(await panel.kiln.proc.exited).toBe(0);
    expect(alive(panel.nodePid)).toBe(false);
    // The outer bubblewrap process is reaped by init a moment after the node that ran it ended.
    await eventually(() => below.every((p) => !alive(p.pid)), 5000, `the server's processes end (${below.map((p) => p.comm).join(", ")})`);
  }, 90_000);
});

test("a panel killed outright: its node sees the channel close and ends on its own", async () => {
  const panel = await startPanelWithNodeProcess();
  try {
    panel.kiln.proc.kill("SIGKILL");
    await eventually(() => !alive(panel.nodePid), 20_000, "the node ends");
  } finally {
    if (alive(panel.nodePid)) process.kill(panel.nodePid, "SIGKILL");
  }
}, 60_000);
