// Attacks on moving servers by whoever holds the least right that reaches it: a server user with
// every everyday flag (not an administrator) starting, reading or cancelling a move; an
// administrator naming the server's own node, a node that does not exist, a draining node, or a
// policy that is not one. Each is refused with a catalogue error and starts nothing.
import { afterAll, beforeAll, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { panelWithNode, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { refusals } from "../helpers/refusal";

let ctx: PanelWithNode;
let nodeB: number;
beforeAll(async () => {
  ctx = await panelWithNode();
  nodeB = (await ctx.panel.db.insert(schema.nodes).values({ name: "node-b", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 1, secret: "s".repeat(32), createdAt: new Date() }).returning().get()).id;
});
afterAll(() => ctx.node.stop());

const snapshot = async () => ({ transfers: await ctx.panel.db.select().from(schema.transfers).all(), servers: await ctx.panel.db.select().from(schema.servers).all() });
const { refused } = refusals(snapshot);
const call = (method: string, path: string, body?: unknown) => ctx.panel.request(path, { token: ctx.admin.token, ...jsonInit(method, body) });

test("only an administrator moves a server, to a node that exists and is not draining", async () => {
  const id = await ctx.createServer("move-refused");
  const user = await ctx.userWith(id, { viewServerConsole: true, startServer: true, stopServer: true, editServerData: true, deleteServer: true, manageAllocations: true });
  const as = (method: string, body?: unknown) => ctx.panel.request(`/api/servers/${id}/transfer`, { token: user.token, ...jsonInit(method, body) });
  await refused(() => as("POST", { node: nodeB }), { status: 403, code: "ErrNoPermission" });
  await refused(() => as("GET"), { status: 403, code: "ErrNoPermission" });
  await refused(() => as("DELETE"), { status: 403, code: "ErrNoPermission" });
  await refused(() => call("POST", `/api/servers/${id}/transfer`, { node: ctx.nodeId }), { status: 400, code: "ErrFieldNotBetween" });
  await refused(() => call("POST", `/api/servers/${id}/transfer`, { node: 9999 }), { status: 404, code: "ErrNotFound" });
  await refused(() => call("POST", `/api/servers/${id}/transfer`, { node: "2; drop" }), { status: 400, code: "ErrFieldRequired" });
  await refused(() => call("POST", `/api/servers/${id}/transfer`, { node: nodeB, allocationPolicy: "steal" }), { status: 400, code: "ErrFieldNotBetween" });
  await refused(() => call("POST", `/api/servers/${id}/transfer`, { node: nodeB, keepRunning: "yes" }), { status: 400, code: "ErrFieldNotBetween" });
  await ctx.panel.db.update(schema.nodes).set({ draining: true }).where(eq(schema.nodes.id, nodeB)).run();
  await refused(() => call("POST", `/api/servers/${id}/transfer`, { node: nodeB }), { status: 409, code: "ErrNoNodeFits" });
  await ctx.panel.db.update(schema.nodes).set({ draining: false }).where(eq(schema.nodes.id, nodeB)).run();
  // Nothing to cancel is said so.
  await refused(() => call("DELETE", `/api/servers/${id}/transfer`), { status: 404, code: "ErrNotFound" });
});
