// Attacks on allocations, placement and bulk power by whoever holds the least right that reaches
// them: a node viewer editing the pool, a server user without manageAllocations, one past the
// server's limit, allocation ids of another node or another server, hostile port ranges, a creator
// who is not an administrator choosing allocations, a port variable set by hand past its
// allocation, and bulk power over servers the caller may not act on. Each is refused with a
// catalogue error and changes nothing. Evacuating a node is an administrator's alone.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { schema } from "../../db";
import { loginAs } from "../helpers/app";
import { panelWithNode, jsonInit, userWithFlags, type PanelWithNode } from "../helpers/panel-node";
import { refusals } from "../helpers/refusal";
import { SCOPES } from "../../core/scopes";
import { addToPool } from "../../server/services/allocations/pool";

let ctx: PanelWithNode;
let otherNode: number;
let mine: string;
let theirs: string;
let foreign: number;
let user: { token: string; userId: number; email: string };

beforeAll(async () => {
  ctx = await panelWithNode();
  otherNode = (await ctx.panel.db.insert(schema.nodes).values({ name: "elsewhere", publicHost: "e.example.com", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 1, secret: "s".repeat(32), createdAt: new Date() }).returning().get()).id;
  await addToPool(ctx.panel.db, ctx.nodeId, { ports: "33000-33005" });
  foreign = (await addToPool(ctx.panel.db, otherNode, { ports: [34000] }))[0]!.id;
  mine = await ctx.createServer("sec-mine");
  theirs = await ctx.createServer("sec-theirs");
  user = await userWithFlags(ctx, mine, ["viewServerConsole", "manageAllocations", "startServer", "stopServer"]);
});
afterAll(() => ctx.node.stop());

const snapshot = async () => ({ allocations: await ctx.panel.db.select().from(schema.allocations).all(), servers: await ctx.panel.db.select().from(schema.servers).all() });
const { refused } = refusals(snapshot);
const as = (token: string, method: string, path: string, body?: unknown) => ctx.panel.request(path, { token, ...jsonInit(method, body) });
const allocationOf = async (serverId: string) => (await ctx.panel.db.select().from(schema.allocations).all()).find((a) => a.serverId === serverId)!;

test("only nodes.edit changes a node's pool; hostile ranges are refused whole", async () => {
  const viewer = await loginAs(ctx.panel.db, [SCOPES.nodesView]);
  await refused(() => as(viewer.token, "POST", `/api/nodes/${ctx.nodeId}/allocations`, { ports: "35000" }), { status: 403, code: "ErrMissingScope" });
  await refused(async () => as(viewer.token, "DELETE", `/api/nodes/${ctx.nodeId}/allocations/${(await allocationOf(mine)).id}`), { status: 403, code: "ErrMissingScope" });
  for (const body of [{ ports: "65535-65536" }, { ports: "0-10" }, { ports: [-1] }, { ports: "1e3" }, { ports: { $gt: 0 } }, { ports: "33005-33010" }, { ports: 33001, ip: "0.0.0.0" }, { ports: "36000", ip: "not-an-ip" }, { ports: "36000", alias: "<script>" }, { ports: Array.from({ length: 1500 }, (_, i) => 40000 + i) }]) {
    const before = await snapshot();
    const res = await as(ctx.admin.token, "POST", `/api/nodes/${ctx.nodeId}/allocations`, body);
    expect(res.status, JSON.stringify(body).slice(0, 60)).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await snapshot()).toEqual(before);
  }
  // A pool is reached through its own node only.
  await refused(() => as(ctx.admin.token, "DELETE", `/api/nodes/${ctx.nodeId}/allocations/${foreign}`), { status: 404, code: "ErrNotFound" });
});

test("a server's allocations are changed by manageAllocations holders, within the server's limit, on that server only", async () => {
  const viewerOnly = await userWithFlags(ctx, mine, ["viewServerConsole"]);
  await refused(() => as(viewerOnly.token, "POST", `/api/servers/${mine}/allocations`, {}), { status: 403, code: "ErrNoPermission" });
  await refused(async () => as(viewerOnly.token, "PUT", `/api/servers/${mine}/allocations/${(await allocationOf(mine)).id}/primary`), { status: 403, code: "ErrNoPermission" });
  // The limit of extras is 0 until an administrator raises it, and only an administrator may.
  await refused(() => as(user.token, "POST", `/api/servers/${mine}/allocations`, {}), { status: 403, code: "ErrAllocationLimit" });
  await refused(() => as(user.token, "PUT", `/api/servers/${mine}/allocations/limit`, { limit: 50 }), { status: 403, code: "ErrNoPermission" });
  // Another server's allocation, and another node's, are unknown here.
  await refused(async () => as(user.token, "PUT", `/api/servers/${mine}/allocations/${(await allocationOf(theirs)).id}/primary`), { status: 404, code: "ErrNotFound" });
  await refused(async () => as(user.token, "DELETE", `/api/servers/${mine}/allocations/${(await allocationOf(theirs)).id}`), { status: 404, code: "ErrNotFound" });
  await refused(() => as(user.token, "POST", `/api/servers/${theirs}/allocations`, {}), { status: 403, code: "ErrNoPermission" });
  expect((await as(ctx.admin.token, "PUT", `/api/servers/${mine}/allocations/limit`, { limit: 1 })).status).toBe(200);
  await refused(() => as(user.token, "POST", `/api/servers/${mine}/allocations`, { allocationId: foreign }), { status: 404, code: "ErrNotFound" });
  await refused(async () => as(user.token, "POST", `/api/servers/${mine}/allocations`, { allocationId: (await allocationOf(theirs)).id }), { status: 409, code: "ErrAllocationInUse" });
  await refused(() => as(user.token, "POST", `/api/servers/${mine}/allocations`, { allocationId: "1; drop table" }), { status: 400, code: "ErrFieldNotBetween" });
  expect((await as(user.token, "POST", `/api/servers/${mine}/allocations`, {})).status).toBe(201);
  await refused(() => as(user.token, "POST", `/api/servers/${mine}/allocations`, {}), { status: 403, code: "ErrAllocationLimit" });
});

test("a port variable is its allocation's: set by hand it is refused, and a creator who is not an administrator chooses no allocations", async () => {
  await refused(() => as(ctx.admin.token, "POST", `/proxy/daemon/server/${mine}/data`, { data: { port: { value: 33005 } } }), { status: 409, code: "ErrPortFromAllocation" });
  const creator = await loginAs(ctx.panel.db, [SCOPES.serversCreate]);
  const free = (await ctx.panel.db.select().from(schema.allocations).all()).find((a) => a.serverId === null && a.nodeId === ctx.nodeId)!;
  await refused(() => as(creator.token, "POST", "/api/servers", { name: "sec-chooser", node: ctx.nodeId, template: "echo", environment: { type: "standard" }, allocations: [free.id] }), { status: 403, code: "ErrNoPermission" });
});

test("bulk power acts only on servers the caller may act on, and says so per server", async () => {
  const viewer = await loginAs(ctx.panel.db, [SCOPES.nodesView]);
  const res = await as(viewer.token, "POST", `/api/nodes/${ctx.nodeId}/power`, { action: "stop", servers: [mine, theirs] });
  const { servers } = (await res.json()) as { servers: { serverId: string; name: string; ok: boolean; error?: string }[] };
  expect(servers.every((s) => !s.ok && s.error === "ErrNotFound")).toBe(true);
  // Named by the ids the viewer sent: the names of servers it may not open stay theirs.
  expect(servers.map((s) => s.name).sort()).toEqual([mine, theirs].sort());
  // Without a selection, servers the caller cannot see are not listed at all.
  expect(((await (await as(viewer.token, "POST", `/api/nodes/${ctx.nodeId}/power`, { action: "kill" })).json()) as { servers: unknown[] }).servers).toEqual([]);
  // A server user without nodes.view does not reach a node's bulk door at all.
  const limited = await userWithFlags(ctx, theirs, ["viewServerConsole"]);
  const answer = (await (await as(limited.token, "POST", `/api/nodes/${ctx.nodeId}/power`, { action: "start" })).json()) as { error?: { code: string } };
  expect(answer.error?.code).toBe("ErrMissingScope");
  for (const body of [{ action: "install" }, { action: "__proto__" }, { action: "stop", servers: "all" }, { action: "stop", servers: [{ id: mine }] }, { action: "stop", servers: ["../x"] }, { action: "stop", servers: Array(600).fill(mine) }]) {
    await refused(() => as(ctx.admin.token, "POST", `/api/nodes/${ctx.nodeId}/power`, body), { status: 400, code: "ErrFieldNotBetween" });
  }
  await refused(() => as(ctx.admin.token, "POST", `/api/nodes/${ctx.nodeId}/power`, { action: "stop", servers: ["nosuch00"] }), { status: 404, code: "ErrNotFound" });
});

test("evacuating, its progress and the rebalancing proposals are administrators' (they name every server of the node)", async () => {
  const editor = await loginAs(ctx.panel.db, [SCOPES.nodesView, SCOPES.nodesEdit]);
  await refused(() => as(editor.token, "POST", `/api/nodes/${ctx.nodeId}/evacuate`), { status: 403, code: "ErrMissingScope" });
  await refused(() => as(editor.token, "GET", `/api/nodes/${ctx.nodeId}/evacuate`), { status: 403, code: "ErrMissingScope" });
  await refused(() => as(editor.token, "GET", `/api/nodes/${ctx.nodeId}/rebalance`), { status: 403, code: "ErrMissingScope" });
  await refused(() => as(user.token, "GET", `/api/nodes/${ctx.nodeId}/rebalance`), { status: 403, code: "ErrMissingScope" });
  await refused(() => as(user.token, "GET", `/api/nodes/${ctx.nodeId}/evacuate`), { status: 403, code: "ErrMissingScope" });
  await refused(() => as(ctx.admin.token, "POST", "/api/nodes/99999/evacuate"), { status: 404, code: "ErrNotFound" });
});

test("a replaced definition keeps the allocations' ports, its extra ports included", async () => {
  const { fetchDefinition } = await import("../../server/services/servers");
  const definition = await fetchDefinition(ctx.panel.db, theirs);
  await refused(() => as(ctx.admin.token, "POST", `/proxy/daemon/server/${theirs}`, { ...definition, extraPorts: [22] }), { status: 409, code: "ErrPortFromAllocation" });
  await refused(() => as(ctx.admin.token, "POST", `/proxy/daemon/server/${theirs}`, { ...definition, data: { ...definition.data, port: { ...definition.data.port, value: 22 } } }), { status: 409, code: "ErrPortFromAllocation" });
  await refused(() => as(ctx.admin.token, "POST", `/proxy/daemon/server/${theirs}`, { run: definition.run }), { status: 409, code: "ErrPortFromAllocation" });
  // The same definition back is fine.
  expect((await as(ctx.admin.token, "POST", `/proxy/daemon/server/${theirs}`, definition)).status).toBe(204);
});

test("what nodes measure and which servers hold their ports are told only to those who may see them", async () => {
  // A creator without nodes.view learns where the server went, not every node's figures.
  const creator = await loginAs(ctx.panel.db, [SCOPES.serversCreate]);
  const made = await as(creator.token, "POST", "/api/servers", { name: "sec-placed", node: "auto", template: "echo", environment: { type: "standard" } });
  expect(made.status).toBe(201);
  expect(((await made.json()) as { placement: { node: string; reasons: unknown[] } }).placement).toEqual({ node: "test-node", reasons: [] });
  // A node viewer sees a held port's server named only when they may open that server.
  const viewer = await loginAs(ctx.panel.db, [SCOPES.nodesView]);
  const theirsName = (await ctx.panel.db.select().from(schema.servers).all()).find((s) => s.id === theirs)!.name;
  const page = await (await ctx.panel.request(`/node/${ctx.nodeId}`, { token: viewer.token, headers: { accept: "text/html" } })).text();
  expect(page).toContain(`<code>${theirs}</code>`);
  expect(page).not.toContain(`>${theirsName}</a>`);
});

// A holder of manageAllocations sending changes at once: each is taken in turn, so the panel's
// holding and what the node publishes agree afterwards, and the limit holds.
test("changes sent at once are taken in turn: the panel's holding and the node's ports agree, within the limit", async () => {
  await addToPool(ctx.panel.db, ctx.nodeId, { ports: "33100-33110" });
  const server = await ctx.createServer("sec-racing");
  const racer = await userWithFlags(ctx, server, ["manageAllocations"]);
  expect((await as(ctx.admin.token, "PUT", `/api/servers/${server}/allocations/limit`, { limit: 3 })).status).toBe(200);
  const free = (await ctx.panel.db.select().from(schema.allocations).all()).filter((a) => a.serverId === null && a.nodeId === ctx.nodeId).slice(0, 5);
  const answers = await Promise.all(free.map((a) => as(racer.token, "POST", `/api/servers/${server}/allocations`, { allocationId: a.id })));
  const statuses = answers.map((res) => res.status).sort();
  // Three extras fit beside the primary; the other two are over the limit.
  expect(statuses).toEqual([201, 201, 201, 403, 403]);
  const held = (await ctx.panel.db.select().from(schema.allocations).all()).filter((a) => a.serverId === server).map((a) => a.port).sort();
  const definition = await ctx.node.json("GET", `/daemon/server/${server}`);
  const published = [Number(definition.data.port.value), ...(definition.extraPorts ?? [])].sort();
  expect(published).toEqual(held);
  expect(held).toHaveLength(4);
});
