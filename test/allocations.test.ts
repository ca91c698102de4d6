// Allocations and placement against two real nodes (the daemon, each with its own data folder): a
// node's pool (ranges, aliases, overlaps refused), free ports filling a new server's port
// variables, its Network changes reaching the node's variables, exhaustion, a port variable that
// only changes through its allocation; and "Best node" placement spreading new servers by the
// memory they ask for, honouring tags and draining, and saying which resource is short.
import { describe, expect, test } from "bun:test";
import { schema } from "../db";
import { panelWithTwoNodes, jsonInit, type PanelWithNode } from "./helpers/panel-node";
import { startTestNode, type TestNode } from "./helpers/node";
import { fetchDefinition } from "../server/services/servers";

let ctx: PanelWithNode;
let second: TestNode;
let nodeB: number;
panelWithTwoNodes((made) => ({ ctx, second, nodeB } = made));

const call = (method: string, path: string, body?: unknown) => ctx.panel.request(path, { token: ctx.admin.token, ...jsonInit(method, body) });
const answer = async <T>(res: Response, status = 200): Promise<T> => {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
};
const codeOf = async (res: Response) => ((await res.json()) as { error?: { code: string; metadata?: Record<string, unknown> } }).error;
const portVariable = async (id: string) => ((await answer<{ data: { port: number } }>(await call("GET", `/proxy/daemon/server/${id}/data`))).data.port);
const create = (name: string, body: Record<string, unknown> = {}) => call("POST", "/api/servers", { name, node: ctx.nodeId, template: "echo", environment: { type: "standard" }, ...body });

describe("a node's pool", () => {
  test("ranges and lists are added, each port once; an overlap or a port past 65535 adds nothing", async () => {
    const added = await answer<{ id: number; port: number; ip: string }[]>(await call("POST", `/api/nodes/${ctx.nodeId}/allocations`, { ports: "30000-30002" }), 201);
    expect(added.map((a) => a.port)).toEqual([30000, 30001, 30002]);
    expect(added.every((a) => a.ip === "0.0.0.0")).toBe(true);
    const before = (await answer<unknown[]>(await call("GET", `/api/nodes/${ctx.nodeId}/allocations`))).length;
    expect((await codeOf(await call("POST", `/api/nodes/${ctx.nodeId}/allocations`, { ports: "30002-30004" })))?.code).toBe("ErrAllocationExists");
    // A port on one address clashes with the same port on every address.
    expect((await codeOf(await call("POST", `/api/nodes/${ctx.nodeId}/allocations`, { ip: "127.0.0.1", ports: [30001] })))?.code).toBe("ErrAllocationExists");
    for (const ports of ["65530-65540", [0], "30010-29990", "x", Array(2000).fill(1).map((_, i) => 40000 + i)]) {
      expect((await call("POST", `/api/nodes/${ctx.nodeId}/allocations`, { ports })).status, JSON.stringify(ports).slice(0, 40)).toBe(400);
    }
    expect((await answer<unknown[]>(await call("GET", `/api/nodes/${ctx.nodeId}/allocations`))).length).toBe(before);
    await answer(await call("POST", `/api/nodes/${ctx.nodeId}/allocations`, { ports: [30003], alias: "play.example.com" }), 201);
  });

  test("a new server's port variable takes a free port; the address shows the primary's alias", async () => {
    const id = (await answer<{ id: string }>(await create("alloc-one"), 201)).id;
    const held = await answer<{ port: number; primary: boolean }[]>(await call("GET", `/api/servers/${id}/allocations`));
    expect(held).toEqual([expect.objectContaining({ port: 30000, primary: true })]);
    expect(await portVariable(id)).toBe(30000);
    // The pool says who holds it; a held allocation is not removed.
    const pool = await answer<{ id: number; port: number; serverId: string | null }[]>(await call("GET", `/api/nodes/${ctx.nodeId}/allocations`));
    const mine = pool.find((a) => a.port === 30000)!;
    expect(mine.serverId).toBe(id);
    expect((await codeOf(await call("DELETE", `/api/nodes/${ctx.nodeId}/allocations/${mine.id}`)))?.code).toBe("ErrAllocationInUse");
    // Chosen by id: the aliased port, whose alias becomes the address.
    const aliased = pool.find((a) => a.port === 30003)!;
    const named = (await answer<{ id: string }>(await create("alloc-alias", { allocations: [aliased.id] }), 201)).id;
    const listed = await answer<{ servers: { id: string; address: string }[] }>(await call("GET", "/api/servers"));
    expect(listed.servers.find((s) => s.id === named)!.address).toBe("play.example.com:30003");
  });

  test("extras, a new primary and giving back reach the node's variables; the primary and a needed port stay", async () => {
    const id = (await answer<{ id: string }>(await create("alloc-net"), 201)).id;
    const [primary] = await answer<{ id: number; port: number }[]>(await call("GET", `/api/servers/${id}/allocations`));
    const extra = await answer<{ id: number; port: number }>(await call("POST", `/api/servers/${id}/allocations`, {}), 201);
    // The echo template has one port variable: the extra is the definition's extra port (published and checked at start).
    expect((await fetchDefinition(ctx.panel.db, id)).extraPorts).toEqual([extra.port]);
    expect(await answer(await call("PUT", `/api/servers/${id}/allocations/${extra.id}/primary`), 204)).toBeNull();
    expect(await portVariable(id)).toBe(extra.port);
    expect((await codeOf(await call("DELETE", `/api/servers/${id}/allocations/${extra.id}`)))?.code).toBe("ErrAllocationPrimary");
    await answer(await call("DELETE", `/api/servers/${id}/allocations/${primary!.id}`), 204);
    expect((await fetchDefinition(ctx.panel.db, id)).extraPorts).toBeUndefined();
    expect((await codeOf(await call("DELETE", `/api/servers/${id}/allocations/${extra.id}`)))?.code).toBe("ErrAllocationPrimary");
    // The port variable is the allocation's: set by hand it is refused, for an administrator too.
    const hand = await call("POST", `/proxy/daemon/server/${id}/data`, { data: { port: 31999 } });
    expect((await codeOf(hand))?.code).toBe("ErrPortFromAllocation");
    expect(await portVariable(id)).toBe(extra.port);
  });

  test("a full pool refuses the next server with ErrNoFreeAllocation; a deleted server's ports are free again", async () => {
    const pool = async () => answer<{ serverId: string | null }[]>(await call("GET", `/api/nodes/${ctx.nodeId}/allocations`));
    const made: string[] = [];
    for (;;) {
      const res = await create(`alloc-fill-${made.length}`);
      if (res.status !== 201) {
        const error = await codeOf(res);
        expect(error?.code).toBe("ErrNoFreeAllocation");
        break;
      }
      made.push(((await res.json()) as { id: string }).id);
      expect(made.length).toBeLessThan(10);
    }
    expect((await pool()).every((a) => a.serverId !== null)).toBe(true);
    await answer(await call("DELETE", `/api/servers/${made[0]}`), 204);
    expect((await pool()).filter((a) => a.serverId === null)).toHaveLength(1);
    // Asking for a port that is not free names it, and another node's allocation is unknown here.
    const other = await answer<{ id: number }[]>(await call("POST", `/api/nodes/${nodeB}/allocations`, { ports: "31000-31001" }), 201);
    expect((await codeOf(await create("alloc-foreign", { allocations: [other[0]!.id] })))?.code).toBe("ErrNotFound");
  });
});

describe("placement", () => {
  test("\"Best node\" spreads servers by the memory they ask for, and answers why", async () => {
    // Room in the first node's pool (the tests above used it up).
    await answer(await call("POST", `/api/nodes/${ctx.nodeId}/allocations`, { ports: "32000-32009" }), 201);
    await answer(await call("POST", `/api/nodes/${nodeB}/allocations`, { ports: "31002-31009" }), 201);
    const chosen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const made = await answer<{ id: string; placement: { node: string; reasons: { node: string; fits: boolean; freeMemoryBytes: number }[] } }>(await create(`placed-${i}`, { node: "auto", limits: { memoryMiB: 256 } }), 201);
      expect(made.placement.reasons.map((r) => r.node).sort()).toEqual(["node-b", "test-node"]);
      chosen.push(made.placement.node);
    }
    // Each placement counts what the last asked for: the two nodes take turns.
    expect(new Set([chosen[0], chosen[1]]).size).toBe(2);
    expect(new Set([chosen[2], chosen[3]]).size).toBe(2);
  });

  test("twenty servers on three nodes spread evenly by the memory they ask for, with no port taken twice", async () => {
    const third = await startTestNode();
    try {
      const nodeC = (await ctx.panel.db.insert(schema.nodes).values({ name: "node-c", publicHost: "c.example.com", publicPort: third.node.port, privateHost: "127.0.0.1", privatePort: third.node.port, sftpPort: 5659, secret: third.config.secret, createdAt: new Date() }).returning().get()).id;
      for (const node of [ctx.nodeId, nodeB, nodeC]) await answer(await call("POST", `/api/nodes/${node}/allocations`, { ports: "40000-40019" }), 201);
      const placed: string[] = [];
      for (let i = 0; i < 20; i++) placed.push((await answer<{ placement: { node: string } }>(await create(`spread-${i}`, { node: "auto", limits: { memoryMiB: 128 } }), 201)).placement.node);
      const counts = ["test-node", "node-b", "node-c"].map((name) => placed.filter((n) => n === name).length);
      // Each node takes its share give or take the servers the earlier tests left reserved there.
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(4);
      expect(counts.every((n) => n >= 4)).toBe(true);
      const held = (await ctx.panel.db.select().from(schema.allocations).all()).filter((a) => a.serverId !== null);
      expect(new Set(held.map((a) => `${a.nodeId}:${a.port}`)).size).toBe(held.length);
      expect(new Set(held.map((a) => a.serverId)).size).toBe(held.length);
    } finally {
      await third.stop();
    }
  }, 60_000);

  test("constraints pick tagged nodes; a draining node takes none; what is short is named", async () => {
    await answer(await call("PUT", `/api/nodes/${nodeB}`, { name: "node-b", publicHost: "b.example.com", publicPort: second.node.port, privateHost: "127.0.0.1", privatePort: second.node.port, sftpPort: 5658, tags: ["location=eu", "ssd"] }));
    const eu = await answer<{ placement: { node: string } }>(await create("placed-eu", { node: "auto", constraints: ["location=eu"] }), 201);
    expect(eu.placement.node).toBe("node-b");
    expect((await codeOf(await create("placed-us", { node: "auto", constraints: ["location=us"] })))?.metadata?.short).toBe("tags");
    await answer(await call("PUT", `/api/nodes/${nodeB}`, { name: "node-b", publicHost: "b.example.com", publicPort: second.node.port, privateHost: "127.0.0.1", privatePort: second.node.port, sftpPort: 5658, draining: true }));
    expect((await codeOf(await create("placed-drained", { node: "auto", constraints: ["ssd"] })))?.metadata?.short).toBe("draining");
    const huge = await codeOf(await create("placed-huge", { node: "auto", limits: { memoryMiB: 64 * 1024 * 1024 } }));
    expect(huge).toMatchObject({ code: "ErrNoNodeFits", metadata: { short: "memory" } });
  });
});
