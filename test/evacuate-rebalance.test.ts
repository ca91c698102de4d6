// Emptying a draining node and rebalancing proposals, against two real nodes: evacuating moves
// every server to the other node (a running one stays running), a node that is not draining is not
// evacuated; a node the panel has seen above its thresholds for the whole period gets proposals to
// move its servers to the node placement chooses, and one below them gets none.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { eq } from "drizzle-orm";
import { schema } from "../db";
import { panelWithTwoNodes, jsonInit, type PanelWithNode } from "./helpers/panel-node";
import { eventually } from "./helpers/node";
import { sampleLoad } from "../server/services/placement/load-history";

let ctx: PanelWithNode;
let nodeB: number;
panelWithTwoNodes((made) => ({ ctx, nodeB } = made));

const call = (method: string, path: string, body?: unknown) => ctx.panel.request(path, { token: ctx.admin.token, ...jsonInit(method, body) });
const nodeOf = async (id: string) => (await ctx.panel.db.select().from(schema.servers).where(eq(schema.servers.id, id)).get())!.nodeId;
const installed = (id: string) => eventually(() => existsSync(ctx.node.folder(id, "motd.txt")), 30_000, "the install");

describe("rebalancing proposals", () => {
  test("a node above its thresholds for the whole period gets proposals to the node placement chooses; below them, none", async () => {
    const id = await ctx.createServer("rebalance-one");
    await installed(id);
    await sampleLoad(ctx.panel.db);
    // CPU out of reach (a machine running the tests may well be busy, and load averages lag): memory decides.
    ctx.panel.deps.config.rebalance = { memoryPercent: 100, cpuPercent: 1000, minutes: 0 };
    const calm = (await (await call("GET", `/api/nodes/${ctx.nodeId}/rebalance`)).json()) as { loaded: boolean; proposals: unknown[]; memoryPercent: number };
    expect(calm).toMatchObject({ loaded: false, proposals: [] });
    expect(calm.memoryPercent).toBeGreaterThan(0);
    // Any machine running the tests uses more than 1 % of its memory.
    ctx.panel.deps.config.rebalance = { memoryPercent: 1, cpuPercent: 1000, minutes: 0 };
    const loaded = (await (await call("GET", `/api/nodes/${ctx.nodeId}/rebalance`)).json()) as { loaded: boolean; proposals: { serverId: string; to: string }[] };
    expect(loaded.loaded).toBe(true);
    expect(loaded.proposals).toContainEqual(expect.objectContaining({ serverId: id, to: "node-b" }));
    // The node page proposes it with a Move button that is a transfer to that node.
    const page = await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token);
    expect(page.html).toContain('data-testid="rebalance-proposals"');
    expect(page.html).toContain(`action="/server/${id}/transfer"`);
    // A period longer than what the panel has seen proposes nothing yet.
    ctx.panel.deps.config.rebalance = { memoryPercent: 1, cpuPercent: 1000, minutes: 30 };
    expect(((await (await call("GET", `/api/nodes/${ctx.nodeId}/rebalance`)).json()) as { loaded: boolean }).loaded).toBe(false);
    await call("DELETE", `/api/servers/${id}`);
  });
});

describe("evacuating a draining node", () => {
  test("every server moves to the other node, a running one still running; a node that is not draining is refused", async () => {
    const stopped = await ctx.createServer("evac-stopped");
    const running = await ctx.createServer("evac-running");
    await installed(stopped);
    await installed(running);
    expect((await call("POST", `/proxy/daemon/server/${running}/start?wait=true`)).status).toBeLessThan(300);
    const refused = await call("POST", `/api/nodes/${ctx.nodeId}/evacuate`);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("ErrNodeNotDraining");
    await ctx.panel.db.update(schema.nodes).set({ draining: true }).where(eq(schema.nodes.id, ctx.nodeId)).run();
    expect((await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token)).html).toContain(`action="/node/${ctx.nodeId}/evacuate#balance"`);
    expect((await call("POST", `/api/nodes/${ctx.nodeId}/evacuate`)).status).toBe(202);
    let last: { state: string; servers: { serverId: string; state: string; to: string | null; error: string | null }[] } | null = null;
    await eventually(async () => {
      last = (await (await call("GET", `/api/nodes/${ctx.nodeId}/evacuate`)).json()) as typeof last;
      return last?.state === "done";
    }, 120_000, "the evacuation");
    const ours = last!.servers.filter((s) => s.serverId === running || s.serverId === stopped);
    expect(ours.map((s) => [s.serverId, s.state, s.to, s.error]).sort()).toEqual([[running, "done", "node-b", null], [stopped, "done", "node-b", null]].sort());
    expect(last!.servers.every((s) => s.state === "done")).toBe(true);
    expect(await nodeOf(stopped)).toBe(nodeB);
    expect(await nodeOf(running)).toBe(nodeB);
    expect(((await (await call("GET", `/proxy/daemon/server/${running}/status`)).json()) as { running: boolean }).running).toBe(true);
    await call("POST", `/proxy/daemon/server/${running}/kill?wait=true`);
    await ctx.panel.db.update(schema.nodes).set({ draining: false }).where(eq(schema.nodes.id, ctx.nodeId)).run();
  }, 150_000);
});
