// Attacks around moving a server between nodes and the ports it holds, found by a review:
// - a server user holding only manageAllocations toggles the server's primary allocation as fast as
//   the panel answers while an administrator moves it: a change in flight at the move's switch
//   wrote the source's ports to the target (on ports two other servers held there) or rolled the
//   holding back onto the source's rows. Every change now holds the server's claim, which the move
//   holds for its whole run: one asked meanwhile is refused with ErrTransferInProgress;
// - a move given up because its panel died (failStaleTransfers) left the source's ticket opening
//   the server's folder for a day: whoever held it read files written after;
// - a server made before its node had a pool set its port variable onto a port the pool had
//   handed another server.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { addNodeRow, jsonInit, panelWithNode, userWithFlags, type PanelWithNode } from "../helpers/panel-node";
import { eventually, startTestNode, type TestNode } from "../helpers/node";
import { addToPool } from "../../server/services/allocations/pool";
import { callOperation } from "../../server/daemon-client";
import { failStaleTransfers } from "../../server/services/transfers";
import { claim, release } from "../../server/services/servers/lifecycle";
import { TRANSFER_SOURCE_PATHS } from "../../core/transfer/wire";

let ctx: PanelWithNode;
let second: TestNode;
let nodeB: number;

beforeAll(async () => {
  ctx = await panelWithNode();
  second = await startTestNode();
  nodeB = await addNodeRow(ctx.panel, "node-b", second.node.port, second.config.secret);
}, 60_000);
afterAll(async () => {
  await ctx?.node.stop();
  await second?.stop();
});

const as = (token: string, method: string, path: string, body?: unknown) => ctx.panel.request(path, { token, ...jsonInit(method, body) });
const allocations = () => ctx.panel.db.select().from(schema.allocations).all();

test("a move given up after its panel died revokes the source's ticket", async () => {
  const id = await ctx.createServer("stale-move");
  const source = (await ctx.panel.db.select().from(schema.nodes).where(eq(schema.nodes.id, ctx.nodeId)).get())!;
  // What a panel process does before it dies mid-move: the offer, and the row it runs.
  const { ticket } = (await (await callOperation(source, "transferOffer", { id })).json()) as { ticket: string };
  await ctx.panel.db.insert(schema.transfers).values({ id: "deadbeefdeadbeef", serverId: id, fromNodeId: ctx.nodeId, toNodeId: nodeB, state: "copying", keepRunning: false, allocationPolicy: "keep", by: "admin", runner: "gone-host:1:abcdef", startedAt: Date.now() - 60_000 }).run();
  const auth = { headers: { authorization: `Bearer ${ticket}` } };
  expect((await fetch(`${ctx.node.node.url}${TRANSFER_SOURCE_PATHS.manifest}`, auth)).status).toBe(200);
  await failStaleTransfers(ctx.panel.db);
  expect((await ctx.panel.db.select().from(schema.transfers).where(eq(schema.transfers.id, "deadbeefdeadbeef")).get())!.state).toBe("failed");
  writeFileSync(join(ctx.node.folder(id), "new-secret.txt"), "rcon.password=hunter2");
  expect((await fetch(`${ctx.node.node.url}${TRANSFER_SOURCE_PATHS.manifest}`, auth)).status).toBe(401);
  const file = await fetch(`${ctx.node.node.url}${TRANSFER_SOURCE_PATHS.file}?path=new-secret.txt`, auth);
  expect(file.status).toBe(401);
  expect(await file.text()).not.toContain("hunter2");
});

test("a server made before its node had a pool cannot set its port onto one the pool handed out", async () => {
  const legacy = await ctx.createServer("before-the-pool");
  const attacker = await userWithFlags(ctx, legacy, ["viewServerConsole", "editServerData"]);
  await addToPool(ctx.panel.db, ctx.nodeId, { ports: "41000-41001" });
  const victim = await ctx.createServer("from-the-pool");
  const victimPort = Number((await ctx.node.json("GET", `/daemon/server/${victim}`)).data.port.value);
  expect(victimPort).toBe(41000);
  // Every shipped template lets users edit the port; the test template does not, so it is made so.
  const definition = await ctx.node.json("GET", `/daemon/server/${legacy}`);
  definition.data.port.userEdit = true;
  expect((await ctx.node.call("POST", `/daemon/server/${legacy}`, definition)).status).toBeLessThan(300);
  const before = Number(definition.data.port.value);
  const taken = await as(attacker.token, "POST", `/proxy/daemon/server/${legacy}/data`, { data: { port: { value: victimPort } } });
  expect(taken.status).toBe(409);
  expect(((await taken.json()) as { error: { code: string } }).error.code).toBe("ErrAllocationInUse");
  // A free port of the pool is the pool's to hand out too (the Network tab takes it).
  const free = await as(attacker.token, "POST", `/proxy/daemon/server/${legacy}/data`, { data: { port: { value: 41001 } } });
  expect(((await free.json()) as { error: { code: string } }).error.code).toBe("ErrPortFromAllocation");
  expect(Number((await ctx.node.json("GET", `/daemon/server/${legacy}`)).data.port.value)).toBe(before);
  // A port outside the pool is still the server's to choose, as before the pool.
  expect((await as(attacker.token, "POST", `/proxy/daemon/server/${legacy}/data`, { data: { port: { value: 42000 } } })).status).toBe(204);
});

test("a server's allocations changed while it moves: refused, and the holding and both nodes agree after the move", async () => {
  const P = 40000;
  const poolA = await addToPool(ctx.panel.db, ctx.nodeId, { ports: `${P}-${P + 1}` });
  const poolB = await addToPool(ctx.panel.db, nodeB, { ports: [P, P + 1, P + 5] });
  // Two other users' servers on node B hold its P and P+1: the move must take B's P+5.
  const others = [await ctx.createServer("x-on-b", { node: nodeB, allocations: [poolB.find((a) => a.port === P)!.id] }), await ctx.createServer("y-on-b", { node: nodeB, allocations: [poolB.find((a) => a.port === P + 1)!.id] })];
  const moved = await ctx.createServer("moved", { allocations: [poolA[0]!.id] });
  expect((await as(ctx.admin.token, "PUT", `/api/servers/${moved}/allocations/limit`, { limit: 1 })).status).toBe(200);
  const user = await userWithFlags(ctx, moved, ["manageAllocations"]);
  expect((await as(user.token, "POST", `/api/servers/${moved}/allocations`, { allocationId: poolA[1]!.id })).status).toBe(201);

  let stop = false;
  const answers = new Map<string, number>();
  const toggling = (async () => {
    for (let i = 0; !stop; i++) {
      const res = await as(user.token, "PUT", `/api/servers/${moved}/allocations/${poolA[i % 2]!.id}/primary`);
      const key = res.ok ? String(res.status) : ((await res.json()) as { error: { code: string } }).error.code;
      answers.set(key, (answers.get(key) ?? 0) + 1);
      // A refusal answers without I/O: the loop must let the move's own work run.
      await Bun.sleep(0);
    }
  })();
  try {
    expect((await as(ctx.admin.token, "POST", `/api/servers/${moved}/transfer`, { node: nodeB })).status).toBe(202);
    await eventually(async () => !["copying", "syncing", "starting"].includes(((await (await as(ctx.admin.token, "GET", `/api/servers/${moved}/transfer`)).json()) as { state: string }).state), 60_000, "the move to end");
  } finally {
    stop = true;
    await toggling;
  }
  expect(((await (await as(ctx.admin.token, "GET", `/api/servers/${moved}/transfer`)).json()) as { state: string }).state).toBe("done");
  // Done, refused during the move, or (once moved) the source's allocation is no longer the server's.
  expect([...answers.keys()].filter((key) => !["204", "ErrTransferInProgress", "ErrNotFound"].includes(key))).toEqual([]);
  expect(answers.get("ErrTransferInProgress")).toBeGreaterThan(0);

  // The server lives on B, holds B's P+5 alone, and its definition there names exactly that port.
  const row = (await ctx.panel.db.select().from(schema.servers).where(eq(schema.servers.id, moved)).get())!;
  const held = (await allocations()).filter((a) => a.serverId === moved);
  expect(row.nodeId).toBe(nodeB);
  expect(held.map((a) => [a.nodeId, a.port])).toEqual([[nodeB, P + 5]]);
  const definition = await second.json("GET", `/daemon/server/${moved}`);
  expect([Number(definition.data.port.value), ...(definition.extraPorts ?? [])]).toEqual([P + 5]);
  expect(row.port).toBe(P + 5);
  for (const other of others) expect(Number((await second.json("GET", `/daemon/server/${other}`)).data.port.value)).not.toBe(P + 5);
  // The source's ports went back to its pool.
  expect((await allocations()).filter((a) => a.nodeId === ctx.nodeId && a.port < P + 2 && a.port >= P).map((a) => a.serverId)).toEqual([null, null]);
}, 120_000);

test("a move asked while the server is held, and moved meanwhile: refused, no row, nothing copied from the node it left", async () => {
  const id = await ctx.createServer("moved-while-waiting");
  // Something holds the server (a deletion, another panel's move): the new move waits for it.
  expect(await claim(ctx.panel.db, id)).toBe(true);
  const asked = as(ctx.admin.token, "POST", `/api/servers/${id}/transfer`, { node: nodeB });
  await Bun.sleep(300);
  // What the holder did meanwhile: it moved the server to node B.
  await ctx.panel.db.update(schema.servers).set({ nodeId: nodeB }).where(eq(schema.servers.id, id)).run();
  await release(ctx.panel.db, id);
  const answer = await asked;
  expect([answer.status, ((await answer.json()) as { error: { code: string } }).error.code]).toEqual([409, "ErrTransferInProgress"]);
  expect(await ctx.panel.db.select().from(schema.transfers).where(eq(schema.transfers.serverId, id)).all()).toEqual([]);
  // Held by nobody: the next change of the server goes ahead.
  expect(await claim(ctx.panel.db, id)).toBe(true);
  await release(ctx.panel.db, id);
  await ctx.panel.db.update(schema.servers).set({ nodeId: ctx.nodeId }).where(eq(schema.servers.id, id)).run();
});
