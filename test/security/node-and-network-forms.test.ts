// Attacks on the plain forms of the node page (Ports, tags and draining, Evacuate) and of a
// server's Network tab, and on a provider's claim refresh, by whoever holds the least right that
// reaches them: a node viewer posting the node editor's forms, a server viewer posting the Network
// forms, hostile values (ports past 65535, an address that is none, an allocation of another
// server or that is no number, a tag with a space, a refresh interval that is no number). Each is
// refused (a status, or the page again with the message) and changes nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { schema } from "../../db";
import { loginAs, HTML } from "../helpers/app";
import { panelWithNode, jsonInit, userWithFlags, type PanelWithNode } from "../helpers/panel-node";
import { SCOPES } from "../../core/scopes";
import { addToPool } from "../../server/services/allocations/pool";

let ctx: PanelWithNode;
let serverId: string;
let other: string;
beforeAll(async () => {
  ctx = await panelWithNode();
  await addToPool(ctx.panel.db, ctx.nodeId, { ports: "36000-36004" });
  serverId = await ctx.createServer("forms-mine");
  other = await ctx.createServer("forms-other");
});
afterAll(() => ctx.node.stop());

const snapshot = async () => ({
  allocations: await ctx.panel.db.select().from(schema.allocations).all(),
  nodes: await ctx.panel.db.select().from(schema.nodes).all(),
  servers: await ctx.panel.db.select().from(schema.servers).all(),
  providers: await ctx.panel.db.select().from(schema.authProviders).all(),
});
const post = (path: string, token: string, fields: Record<string, string>) =>
  ctx.panel.request(path, { method: "POST", token, headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", ...HTML }, body: new URLSearchParams(fields).toString() });
/** Refused: a 4xx (the page with its message, or an error page), never a 500, and nothing changed. */
async function refused(attack: () => Promise<Response>, status?: number) {
  const before = await snapshot();
  const res = await attack();
  if (status) expect(res.status).toBe(status);
  else expect(res.status >= 400 && res.status < 500, `status ${res.status}`).toBe(true);
  expect(await res.text()).not.toContain("/work/");
  expect(await snapshot()).toEqual(before);
}
const allocationOf = async (id: string) => (await ctx.panel.db.select().from(schema.allocations).all()).find((a) => a.serverId === id)!.id;

test("the node page's editor forms refuse a node viewer", async () => {
  const viewer = await loginAs(ctx.panel.db, [SCOPES.nodesView]);
  await refused(() => post(`/node/${ctx.nodeId}/allocations`, viewer.token, { ip: "0.0.0.0", ports: "37000" }), 403);
  await refused(async () => post(`/node/${ctx.nodeId}/allocations/${await allocationOf(serverId)}/delete`, viewer.token, {}), 403);
  await refused(() => post(`/node/${ctx.nodeId}/evacuate`, viewer.token, {}), 403);
  const editor = await loginAs(ctx.panel.db, [SCOPES.nodesView, SCOPES.nodesEdit]);
  await refused(() => post(`/node/${ctx.nodeId}/evacuate`, editor.token, {}), 403);
});

test("hostile Ports and tags values: refused at their field, nothing added or changed", async () => {
  for (const fields of <Record<string, string>[]>[{ ip: "0.0.0.0", ports: "65530-65540" }, { ip: "not-an-ip", ports: "37000" }, { ip: "0.0.0.0", ports: "37000", alias: "<script>x</script>" }, { ip: "0.0.0.0", ports: "36002" }, { ip: "0.0.0.0", ports: "x".repeat(5000) }]) {
    await refused(() => post(`/node/${ctx.nodeId}/allocations`, ctx.admin.token, fields));
  }
  // Another node's allocation through this node's address, and ids that are no number.
  for (const path of [`/node/${ctx.nodeId}/allocations/99999/delete`, `/node/${ctx.nodeId}/allocations/abc/delete`, `/node/${ctx.nodeId}/allocations/${await allocationOf(serverId)}/delete`]) await refused(() => post(path, ctx.admin.token, {}));
  const node = (await ctx.panel.db.select().from(schema.nodes).all())[0]!;
  const fields = { name: node.name, publicHost: node.publicHost, publicPort: String(node.publicPort), privateHost: node.privateHost, privatePort: String(node.privatePort), sftpPort: String(node.sftpPort), internalHost: "" };
  await refused(() => post(`/node/${ctx.nodeId}`, ctx.admin.token, { ...fields, tags: "location=eu, two words" }));
  await refused(() => post(`/node/${ctx.nodeId}`, ctx.admin.token, { ...fields, tags: Array.from({ length: 40 }, (_, i) => `t${i}`).join(",") }));
});

test("the Network tab's forms refuse a viewer; hostile allocation choices are refused and change nothing", async () => {
  const viewer = await userWithFlags(ctx, serverId, ["viewServerConsole"]);
  await refused(() => post(`/server/${serverId}/network/add`, viewer.token, { allocationId: "" }));
  await refused(async () => post(`/server/${serverId}/network/${await allocationOf(serverId)}/primary`, viewer.token, {}));
  await refused(async () => post(`/server/${serverId}/network/${await allocationOf(serverId)}/remove`, viewer.token, {}));
  await refused(() => post(`/server/${serverId}/network/limit`, viewer.token, { limit: "100" }));
  const manager = await userWithFlags(ctx, serverId, ["viewServerConsole", "manageAllocations"]);
  await refused(() => post(`/server/${serverId}/network/limit`, manager.token, { limit: "100" }));
  for (const [path, fields] of [[`/server/${serverId}/network/add`, { allocationId: "1; drop" }], [`/server/${serverId}/network/add`, { allocationId: String(await allocationOf(other)) }], [`/server/${serverId}/network/${await allocationOf(other)}/primary`, {}], [`/server/${serverId}/network/..%2F1/remove`, {}], [`/server/${serverId}/network/limit`, { limit: "-5" }], [`/server/${serverId}/network/limit`, { limit: "1e9" }]] as const) {
    await refused(() => post(path, ctx.admin.token, fields));
  }
});

test("a provider's refresh interval takes a whole number of minutes, 0 or from 5 to a week", async () => {
  const made = await ctx.panel.request("/api/auth/providers", { token: ctx.admin.token, ...jsonInit("POST", { id: "kc", name: "Keycloak", type: "oidc", issuer: "http://127.0.0.1:9", clientId: "a", clientSecret: "b" }) });
  expect(made.status).toBe(201);
  for (const refreshMinutes of [3, -1, 1.5, 20_000, "15", null]) {
    await refused(() => ctx.panel.request("/api/auth/providers/kc", { token: ctx.admin.token, ...jsonInit("PUT", { refreshMinutes }) }), 400);
  }
  for (const refreshMinutes of ["abc", "-1", "3", "1e9"]) {
    await refused(() => post("/settings/sso/kc", ctx.admin.token, { name: "Keycloak", type: "oidc", issuer: "http://127.0.0.1:9", clientId: "a", refreshMinutes, rules: "[]" }));
  }
});
