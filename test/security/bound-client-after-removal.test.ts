// Attack: a user made an OAuth2 client bound to a server, then was removed from that server. The
// client was listed nowhere they could see (their Account page listed account-level clients only,
// the server's tab needs access to the server) and could not be deleted by them (403 through the
// server's route, not found through their own), yet it was theirs, and once they were added back
// the client and its tokens under an hour old worked again. A leaked bot secret from before the
// removal came back with them. Now their Account page lists every client they hold (a bound one
// without the server's name while they no longer see the server: a name given to it since is not
// theirs to learn), and they delete it there or through DELETE /api/self/oauth2/{id}; its tokens end.
import { beforeAll, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";

let panel: TestPanel;
let member: Awaited<ReturnType<typeof loginAs>>;
const SERVER = "bound0001";

beforeAll(async () => {
  panel = await testPanel();
  await loginAs(panel.db, [SCOPES.admin]);
  member = await loginAs(panel.db, []);
  const node = await panel.db.insert(schema.nodes).values({ name: "n", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2, secret: "x".repeat(32), createdAt: new Date() }).returning().get();
  await panel.db.insert(schema.servers).values({ id: SERVER, name: "survival", nodeId: node.id, createdAt: new Date() }).run();
  await panel.db.insert(schema.serverUsers).values({ serverId: SERVER, userId: member.userId, flags: ["viewServer"] }).run();
});

async function tokenOf(client: { id: string; secret: string }): Promise<Response> {
  return await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.id, client_secret: client.secret }).toString() });
}
const removeFromServer = () => panel.db.delete(schema.serverUsers).where(and(eq(schema.serverUsers.serverId, SERVER), eq(schema.serverUsers.userId, member.userId))).run();
const addBack = () => panel.db.insert(schema.serverUsers).values({ serverId: SERVER, userId: member.userId, flags: ["viewServer"] }).run();

test("a client bound to a server its holder was removed from is listed on their Account page and theirs to delete; it does not come back with them", async () => {
  const made = await panel.request(`/api/servers/${SERVER}/oauth2`, { token: member.token, ...jsonInit("POST", { name: "leaked bot", description: "", password: "password123" }) });
  expect(made.status).toBeLessThan(300);
  const body = await made.json();
  const client = { id: body.client_id ?? body.id, secret: body.client_secret ?? body.secret };
  const issued = await tokenOf(client);
  expect(issued.status).toBe(200);
  const token = (await issued.json()).access_token as string;
  const readsServer = async () => (await panel.request(`/api/servers/${SERVER}`, { token })).status;
  expect(await readsServer()).toBe(200);

  await removeFromServer();
  // Renamed after the removal: the holder does not learn the new name from their own page.
  await panel.db.update(schema.servers).set({ name: "renamed-since" }).where(eq(schema.servers.id, SERVER)).run();
  const page = await (await panel.request("/account", { token: member.token, headers: HTML })).text();
  expect(page).toContain(client.id);
  expect(page).not.toContain("renamed-since");
  expect(page).toContain(`/account/oauth2/${encodeURIComponent(client.id)}/delete`);

  // Through the server's route it stays refused (no access); through their own it goes.
  expect((await panel.request(`/api/servers/${SERVER}/oauth2/${encodeURIComponent(client.id)}`, { token: member.token, method: "DELETE" })).status).toBe(403);
  const deleted = await panel.request(`/api/self/oauth2/${encodeURIComponent(client.id)}`, { token: member.token, method: "DELETE" });
  expect(deleted.status).toBeLessThan(300);
  expect(await panel.db.select().from(schema.oauth2Clients).where(eq(schema.oauth2Clients.clientId, client.id)).get()).toBeUndefined();

  // Added back, the holder's old client and its token are gone for good.
  await addBack();
  expect(await readsServer()).toBe(401);
  expect((await tokenOf(client)).status).toBe(401);
});

test("the Account page's delete form takes any of the holder's clients, never another account's", async () => {
  const other = await loginAs(panel.db, []);
  const made = await panel.request("/api/self/oauth2", { token: other.token, ...jsonInit("POST", { name: "theirs", description: "", password: "password123" }) });
  expect(made.status).toBeLessThan(300);
  const created = await made.json();
  const theirs = (created.client_id ?? created.id) as string;
  expect(theirs).toBeString();
  const refused = await panel.request(`/api/self/oauth2/${encodeURIComponent(theirs)}`, { token: member.token, method: "DELETE" });
  expect(refused.status).toBe(404);
  expect((await refused.json()).error.code).toBe("ErrClientNotFound");
  expect(await panel.db.select().from(schema.oauth2Clients).where(eq(schema.oauth2Clients.clientId, theirs)).get()).toBeDefined();
});
