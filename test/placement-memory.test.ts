// Placement by what nodes measure, with memory really held: two `kiln daemon` processes, each in a
// memory cgroup of its own limited to 1.5 GiB (as a node in a container is), and a process in one
// of those cgroups holding 0.75 GiB. Each node reports its cgroup's limit and use, not the machine's, so
// "Best node" sends the new server to the other one; when the memory moves, so does the choice.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { testPanel, loginAs, type TestPanel } from "./helpers/app";
import { addNodeRow, jsonInit } from "./helpers/panel-node";
import { echoTemplate, eventually } from "./helpers/node";
import { KILN, freePort, startKiln, tempDir } from "./helpers/process";
import { partAvailable } from "./helpers/require-part";
import { putTemplate } from "../server/services/templates";
import { SCOPES } from "../core/scopes";

const GIB = 1024 ** 3;
/**
 * Each node's cgroup limit, and what the hog holds: half of it, so the held node still has room for
 * the server and is passed over for having less free, not for having none. Touching each page is
 * what charges it and what takes the time (about 10 s a GiB on a loaded CI machine), so the
 * amounts are small; the rule does not depend on them.
 */
const LIMIT = 1.5 * GIB;
const HELD = 0.75 * GIB;
/** Where memory cgroups are made and what their limit is called: v1's memory controller, else v2's unified tree. */
const CGROUPS = existsSync("/sys/fs/cgroup/memory/cgroup.procs") ? { root: "/sys/fs/cgroup/memory", limit: "memory.limit_in_bytes" } : { root: "/sys/fs/cgroup", limit: "memory.max" };
const enabled = partAvailable("a memory cgroup the tests may make, as root", () => process.getuid?.() === 0 && existsSync(join(CGROUPS.root, "cgroup.procs")));

interface FencedNode { name: string; id: number; cgroup: string; proc: Subprocess }
let panel: TestPanel;
let admin: { token: string };
const nodes: FencedNode[] = [];
const hogs: Subprocess[] = [];

/** A cgroup of its own with a memory limit; the command runs in it from its first instruction. */
function fenced(cgroup: string, command: string[]): string[] {
  return ["sh", "-c", `echo $$ > ${join(cgroup, "cgroup.procs")} && exec "$@"`, "sh", ...command];
}

async function startFencedNode(name: string): Promise<FencedNode> {
  const cgroup = join(CGROUPS.root, `kiln-test-${randomBytes(4).toString("hex")}`);
  mkdirSync(cgroup);
  writeFileSync(join(cgroup, CGROUPS.limit), String(LIMIT));
  const port = await freePort();
  const secret = randomBytes(24).toString("base64url");
  const { proc } = await startKiln(fenced(cgroup, [...KILN, "daemon"]), { KILN_DAEMON_SECRET: secret, KILN_DAEMON_PORT: String(port), KILN_DAEMON_HOST: "127.0.0.1", KILN_DAEMON_SFTP_PORT: "0", KILN_DAEMON_DATA: tempDir("kiln-fenced-") }, /node listening on/);
  return { name, id: await addNodeRow(panel, name, port, secret), cgroup, proc };
}

/** A process in `cgroup` that holds HELD bytes, every page touched. */
async function hog(cgroup: string): Promise<Subprocess> {
  const proc = Bun.spawn(fenced(cgroup, [process.execPath, "-e", `const b = Buffer.alloc(${HELD}, 1); console.log('held', b.length); setInterval(() => b[0]++, 1000);`]), { stdout: "pipe", stderr: "inherit" });
  hogs.push(proc);
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toContain("held");
  return proc;
}

beforeAll(async () => {
  if (!enabled) return;
  panel = await testPanel();
  admin = await loginAs(panel.db, [SCOPES.admin]);
  await putTemplate(panel.db, "echo", echoTemplate());
  nodes.push(await startFencedNode("fenced-a"), await startFencedNode("fenced-b"));
}, 60_000);
afterAll(async () => {
  for (const proc of [...hogs, ...nodes.map((n) => n.proc)]) proc.kill("SIGKILL");
  await Promise.all([...hogs, ...nodes.map((n) => n.proc)].map((p) => p.exited));
  for (const node of nodes) if (existsSync(node.cgroup)) rmdirSync(node.cgroup);
});

interface Placed { id: string; placement: { node: string; reasons: { node: string; freeMemoryBytes: number }[] } }
const place = async (name: string): Promise<Placed> => {
  const res = await panel.request("/api/servers", { token: admin.token, ...jsonInit("POST", { name, node: "auto", template: "echo", environment: { type: "standard" }, limits: { memoryMiB: 128 } }) });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Placed;
};
const freeOf = (placed: Placed, node: string) => placed.placement.reasons.find((r) => r.node === node)!.freeMemoryBytes;

describe.skipIf(!enabled)("placement by measured memory", () => {
  test("a node whose memory a process holds is passed over for the one that has it free; and back when the memory moves", async () => {
    const [a, b] = nodes as [FencedNode, FencedNode];
    // Each reports its cgroup's limit, not the machine's memory.
    const idle = await place("fenced-idle");
    for (const node of [a, b]) expect(freeOf(idle, node.name)).toBeLessThanOrEqual(LIMIT);
    await panel.request(`/api/servers/${idle.id}`, { token: admin.token, method: "DELETE" });

    let held = await hog(a.cgroup);
    const first = await place("fenced-one");
    expect(first.placement.node).toBe(b.name);
    expect(freeOf(first, a.name)).toBeLessThan(LIMIT - HELD + 0.2 * GIB);
    expect(freeOf(first, a.name)).toBeGreaterThan(128 * 1024 ** 2);
    expect(freeOf(first, b.name)).toBeGreaterThan(HELD);

    held.kill("SIGKILL");
    await held.exited;
    held = await hog(b.cgroup);
    // The kernel takes a moment to uncharge the first process's pages: asked twice a second.
    let probe = 0;
    await eventually(async () => {
      await Bun.sleep(500);
      return (await place(`fenced-probe-${probe++}`)).placement.node === a.name;
    }, 20_000, "the other node to be chosen");
    held.kill("SIGKILL");
  }, 60_000);
});
