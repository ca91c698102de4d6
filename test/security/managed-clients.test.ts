// A manager (users.edit) sees and deletes another account's OAuth2 clients, from the user's page
// and the API: a leaked secret or a script gone wrong is stopped without deleting the account.
// Attacked by whoever holds the least that reaches it: a users.edit holder against an
// administrator's client (the account rule: nobody reaches an account holding more), a client's
// token (clients never manage clients), a client named under another account, the form without
// its acknowledgement. Each is refused with the catalogue's code, and the client and its tokens
// stay; the allowed deletion ends the client's tokens at once.
import { beforeAll, expect, test } from "bun:test";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { errorOf } from "../helpers/refusal";

let panel: TestPanel;
let admin: Awaited<ReturnType<typeof loginAs>>;
let manager: Awaited<ReturnType<typeof loginAs>>;
let member: Awaited<ReturnType<typeof loginAs>>;
const SERVER = "abcd1234";

beforeAll(async () => {
  panel = await testPanel();
  admin = await loginAs(panel.db, [SCOPES.admin]);
  manager = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
  member = await loginAs(panel.db, []);
  const node = await panel.db.insert(schema.nodes).values({ name: "n", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2, secret: "x".repeat(32), createdAt: new Date() }).returning().get();
  await panel.db.insert(schema.servers).values({ id: SERVER, name: "survival", nodeId: node.id, createdAt: new Date() }).run();
  // The manager holds what the member holds on the server too: the account rule counts server rights.
  for (const user of [member, manager]) await panel.db.insert(schema.serverUsers).values({ serverId: SERVER, userId: user.userId, flags: ["viewServer"] }).run();
});

async function makeClient(owner: { token: string }, server?: string): Promise<{ id: string; secret: string }> {
  const path = server ? `/api/servers/${server}/oauth2` : "/api/self/oauth2";
  const res = await panel.request(path, { token: owner.token, ...jsonInit("POST", { name: "bot", description: "", password: "password123" }) });
  expect(res.status).toBeLessThan(300);
  const body = await res.json();
  return { id: body.client_id ?? body.id, secret: body.client_secret ?? body.secret };
}

async function tokenOf(client: { id: string; secret: string }): Promise<string> {
  const res = await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.id, client_secret: client.secret }).toString() });
  expect(res.status).toBe(200);
  return (await res.json()).access_token;
}

const opens = async (token: string) => (await panel.request("/api/self", { token })).status === 200;
const clientIds = async () => (await panel.db.select({ id: schema.oauth2Clients.clientId }).from(schema.oauth2Clients).all()).map((c) => c.id).sort();
const revoke = (actor: { token: string }, userId: number, clientId: string) => panel.request(`/api/users/${userId}/oauth2/${encodeURIComponent(clientId)}`, { token: actor.token, method: "DELETE" });

test("the user's clients are listed with their servers, and no secret", async () => {
  const account = await makeClient(member);
  const bound = await makeClient(member, SERVER);
  const res = await panel.request(`/api/users/${member.userId}/oauth2`, { token: manager.token });
  expect(res.status).toBe(200);
  const listed = await res.json();
  expect(listed.map((c: { client_id: string; serverName: string | null }) => [c.client_id, c.serverName])).toEqual([[account.id, null], [bound.id, "survival"]]);
  expect(JSON.stringify(listed)).not.toContain(account.secret);
  expect(JSON.stringify(listed)).not.toMatch(/secretHash|argon2/);
  const page = await (await panel.request(`/user/${member.userId}`, { token: manager.token, headers: HTML })).text();
  expect(page).toContain(account.id);
  expect(page).toContain("Only on server survival");
});

test("a users.edit holder cannot delete an administrator's client; a client's token deletes none; a client named under another account is not found", async () => {
  const adminClient = await makeClient(admin);
  const adminToken = await tokenOf(adminClient);
  const memberClient = await makeClient(member);
  const before = await clientIds();
  expect(await errorOf(await revoke(manager, admin.userId, adminClient.id))).toEqual({ status: 403, code: "ErrUserHasMorePermissions" });
  // The administrator's own client, used against a member's client.
  expect((await errorOf(await revoke({ token: adminToken }, member.userId, memberClient.id))).status).toBe(403);
  // Named under the wrong account: the member's id with the administrator's client.
  expect(await errorOf(await revoke(manager, member.userId, adminClient.id))).toEqual({ status: 404, code: "ErrClientNotFound" });
  expect(await errorOf(await revoke(manager, member.userId, "x".repeat(5000)))).toEqual({ status: 404, code: "ErrClientNotFound" });
  expect(await clientIds()).toEqual(before);
  expect(await opens(adminToken)).toBe(true);
});

test("the page's form needs its acknowledgement; with it, the client goes and its tokens end at once", async () => {
  const client = await makeClient(member);
  const token = await tokenOf(client);
  const form = (fields: Record<string, string>) => panel.request(`/user/${member.userId}/oauth2/${client.id}/delete`, { token: manager.token, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...HTML }, body: new URLSearchParams(fields).toString() });
  expect((await form({})).status).toBe(400);
  expect(await clientIds()).toContain(client.id);
  expect(await opens(token)).toBe(true);
  expect((await form({ ack: "on" })).status).toBe(303);
  expect(await clientIds()).not.toContain(client.id);
  expect(await opens(token)).toBe(false);
  // The API does the same for a server-level client.
  const bound = await makeClient(member, SERVER);
  expect((await revoke(manager, member.userId, bound.id)).status).toBe(204);
  expect(await clientIds()).not.toContain(bound.id);
});
