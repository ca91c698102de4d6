// A move takes the server's definition from its source node, and a compromised source could answer
// it without the limits and file denylist an administrator set (or with another environment or
// network): the target then kept that, so moving a server off a hostile node laundered the node's
// edits onto a clean one, where the server ran unlimited beside its neighbours with its denylist
// gone. The panel now keeps its own copy of those bounds (core/definition/bounds) and the move lays
// it over the source's answer, recording which bounds it corrected.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db";
import { panelWithTwoNodes, jsonInit, formInit, type PanelWithNode } from "../helpers/panel-node";
import { echoTemplate, eventually, type TestNode } from "../helpers/node";
import { putTemplate } from "../../server/services/templates";
import { recordEarlierBounds } from "../../server/services/servers/bounds";

let ctx: PanelWithNode;
let second: TestNode;
let nodeB: number;
panelWithTwoNodes((made) => ({ ctx, second, nodeB } = made));

const LIMITS = { memoryMiB: 512, processes: 64, diskMiB: 2048 };
const DENYLIST = ["secrets/*", "*.key"];

const call = (method: string, path: string, body?: unknown) => ctx.panel.request(path, { token: ctx.admin.token, ...jsonInit(method, body) });

async function guardedServer(name: string): Promise<string> {
  await putTemplate(ctx.panel.db, "echo-denied", { ...echoTemplate(), name: "echo-denied", fileDenylist: DENYLIST });
  const res = await call("POST", "/api/servers", { name, node: ctx.nodeId, template: "echo-denied", environment: { type: "standard" }, limits: LIMITS });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  // The install that follows creation has written its file: the folder holds still for the move.
  await eventually(() => existsSync(join(ctx.node.folder(id), "motd.txt")), 30_000, "the install");
  return id;
}

/** What a compromised node does to the definition it holds: its limits and denylist gone. */
async function strip(node: TestNode, id: string): Promise<void> {
  const definition = await node.json("GET", `/daemon/server/${id}`);
  delete definition.limits;
  delete definition.fileDenylist;
  expect((await node.call("POST", `/daemon/server/${id}`, definition)).status).toBeLessThan(300);
  const now = await node.json("GET", `/daemon/server/${id}`);
  expect(now.limits).toBeUndefined();
  expect(now.fileDenylist).toBeUndefined();
}

test("a source answering the definition without its limits and denylist does not carry that to the target", async () => {
  const id = await guardedServer("bounds-move");
  await strip(ctx.node, id);
  const started = await call("POST", `/api/servers/${id}/transfer`, { node: nodeB });
  expect(started.status, await started.clone().text()).toBe(202);
  let state = "";
  await eventually(async () => {
    state = ((await (await call("GET", `/api/servers/${id}/transfer`)).json()) as { state: string }).state;
    return !["copying", "syncing", "starting"].includes(state);
  }, 60_000, "the move");
  expect(state).toBe("done");
  const moved = await second.json("GET", `/daemon/server/${id}`);
  expect(moved.limits).toEqual(LIMITS);
  expect(moved.fileDenylist).toEqual(DENYLIST);
  // The correction is on the move's record, for the administrator to see which node lied.
  const row = await ctx.panel.db.select().from(schema.activity).where(and(eq(schema.activity.event, "server.transfer.completed"), eq(schema.activity.serverId, id))).get();
  expect(JSON.parse(row!.properties)).toMatchObject({ boundsCorrected: "limits,fileDenylist" });
}, 90_000);

test("an administrator's change of one part of a definition sends the panel's bounds, not the node's", async () => {
  const id = await guardedServer("bounds-flag");
  await strip(ctx.node, id);
  // Toggling a run flag reads the definition and writes it back whole: the stripped bounds must not become the panel's.
  const res = await ctx.panel.request(`/server/${id}/flags`, { token: ctx.admin.token, ...formInit({ flag: "autostart" }) });
  expect(res.status).toBeLessThan(400);
  const now = await ctx.node.json("GET", `/daemon/server/${id}`);
  expect(now.run.autostart).toBe(true);
  expect(now.limits).toEqual(LIMITS);
  expect(now.fileDenylist).toEqual(DENYLIST);
  const kept = (await ctx.panel.db.select({ bounds: schema.servers.bounds }).from(schema.servers).where(eq(schema.servers.id, id)).get())!.bounds;
  expect(kept).toMatchObject({ limits: LIMITS, fileDenylist: DENYLIST });
}, 60_000);

test("a server made before the panel kept its bounds has them recorded from its node once, then holds", async () => {
  const id = await guardedServer("bounds-upgrade");
  // As the migration leaves a server that existed before it.
  await ctx.panel.db.update(schema.servers).set({ bounds: null }).where(eq(schema.servers.id, id)).run();
  const source = (await ctx.panel.db.select().from(schema.nodes).where(eq(schema.nodes.id, ctx.nodeId)).get())!;
  await recordEarlierBounds(ctx.panel.db, source);
  const kept = async () => (await ctx.panel.db.select({ bounds: schema.servers.bounds }).from(schema.servers).where(eq(schema.servers.id, id)).get())!.bounds;
  expect(await kept()).toMatchObject({ limits: LIMITS, fileDenylist: DENYLIST, environmentType: "standard" });
  // Once recorded, a later answer of the node's changes nothing.
  await strip(ctx.node, id);
  await recordEarlierBounds(ctx.panel.db, source);
  expect(await kept()).toMatchObject({ limits: LIMITS, fileDenylist: DENYLIST });
}, 60_000);

test("a whole definition an administrator sends through the proxy is the panel's copy from then on", async () => {
  const id = await guardedServer("bounds-proxy");
  const definition = await ctx.node.json("GET", `/daemon/server/${id}`);
  const replaced = await call("POST", `/proxy/daemon/server/${id}`, { ...definition, limits: { memoryMiB: 1024 }, fileDenylist: ["world/*"] });
  expect(replaced.status, await replaced.clone().text()).toBeLessThan(300);
  const kept = (await ctx.panel.db.select({ bounds: schema.servers.bounds }).from(schema.servers).where(eq(schema.servers.id, id)).get())!.bounds;
  expect(kept).toMatchObject({ limits: { memoryMiB: 1024 }, fileDenylist: ["world/*"] });
}, 60_000);
