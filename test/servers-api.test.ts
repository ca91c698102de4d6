// /api/servers against a real node: create from a template, list with addresses, read with
// permissions, rename, server users (with invitations), server-level OAuth2 and delete.
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../db";
import { loginAs } from "./helpers/app";
import type { TestNode } from "./helpers/node";
import { panelPerTest, jsonInit, setNodePort, type PanelWithNode } from "./helpers/panel-node";
import { SCOPES, SERVER_FLAGS } from "../core/scopes";
import { freePort } from "./helpers/process";

let node: TestNode;
let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
  node = fresh.node;
});

const errorOf = async (res: Response) => ({ status: res.status, code: (await res.json()).error?.code });
const nodeServerCount = () => node.node.manager.list().length;
const onNode = async (id: string) => (await node.call("GET", `/daemon/server/${id}`)).status === 200;

describe("servers API", () => {
  test("create from a template: the node gets the filled-in definition, the list shows the address", async () => {
    const { panel, admin } = ctx;
    const id = await ctx.createServer("Echo One", { variables: { greeting: "there", port: "25570" }, autostart: true });
    const definition = await node.json("GET", `/daemon/server/${id}`);
    expect(definition.data.greeting.value).toBe("there");
    expect(definition.data.port.value).toBe(25570);
    expect(definition.environment).toEqual({ type: "standard" });
    expect(definition.run.autostart).toBe(true);
    expect(definition.run.autorestart).toBe(false);

    const list = await (await panel.request("/api/servers", { token: admin.token })).json();
    expect(list.paging.total).toBe(1);
    // The node's public host is {ip}: the host the caller used stands in for it.
    expect(list.servers[0]).toMatchObject({ id, name: "Echo One", nodeName: "test-node", address: "localhost:25570" });
    const one = await (await panel.request(`/api/servers/${id}?perms`, { token: admin.token })).json();
    expect(one.server.name).toBe("Echo One");
    expect(Object.values(one.permissions).every((v) => v === true)).toBe(true);
    expect(Object.keys(one.permissions).sort()).toEqual([...SERVER_FLAGS].sort());
  });

  test("bad creations answer a catalogue error and change nothing", async () => {
    const { panel, admin, nodeId } = ctx;
    await ctx.createServer("taken");
    const before = (await panel.db.select().from(schema.servers).all()).length;
    const onNodeBefore = nodeServerCount();
    const post = (body: Record<string, unknown>) => panel.request("/api/servers", { token: admin.token, ...jsonInit("POST", { name: "fresh", node: nodeId, template: "echo", ...body }) });
    expect(await errorOf(await post({ name: "TAKEN" }))).toEqual({ status: 409, code: "ErrDuplicateServerName" });
    expect(await errorOf(await post({ name: "" }))).toEqual({ status: 400, code: "ErrFieldRequired" });
    expect(await errorOf(await post({ name: "a/b" }))).toEqual({ status: 400, code: "ErrFieldHasURICharacters" });
    expect(await errorOf(await post({ template: "nope" }))).toEqual({ status: 404, code: "ErrNoTemplate" });
    expect((await errorOf(await post({ environment: { type: "nonsense" } }))).status).toBe(400);
    expect(await errorOf(await post({ variables: { greeting: "" } }))).toEqual({ status: 400, code: "ErrFieldRequired" });
    expect(await errorOf(await post({ variables: { port: "many" } }))).toEqual({ status: 400, code: "ErrFieldNotInteger" });
    expect(await errorOf(await post({ user: "nobody@example.com" }))).toEqual({ status: 404, code: "ErrUserNotFound" });
    expect((await panel.db.select().from(schema.servers).all()).length).toBe(before);
    expect(nodeServerCount()).toBe(onNodeBefore);
  });

  test("a node that does not answer: ErrServiceNotAvailable, and no row is left behind", async () => {
    const { panel, admin, nodeId } = ctx;
    await setNodePort(panel, nodeId, await freePort());
    const res = await panel.request("/api/servers", { token: admin.token, ...jsonInit("POST", { name: "lost", node: nodeId, template: "echo" }) });
    expect(await errorOf(res)).toEqual({ status: 503, code: "ErrServiceNotAvailable" });
    expect(await panel.db.select().from(schema.servers).all()).toHaveLength(0);
  });

  test("creating needs servers.create; the owner named by email gets every flag", async () => {
    const { panel, nodeId } = ctx;
    const plain = await loginAs(panel.db, []);
    const creator = await loginAs(panel.db, [SCOPES.serversCreate]);
    const owner = await loginAs(panel.db, []);
    const body = { name: "owned", node: nodeId, template: "echo", user: owner.email };
    expect(await errorOf(await panel.request("/api/servers", { token: plain.token, ...jsonInit("POST", body) }))).toEqual({ status: 403, code: "ErrMissingScope" });
    const res = await panel.request("/api/servers", { token: creator.token, ...jsonInit("POST", body) });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const perms = (await (await panel.request(`/api/servers/${id}?perms`, { token: owner.token })).json()).permissions;
    expect(Object.values(perms).every(Boolean)).toBe(true);
    // The creator named someone else as owner, so the creator has no access of their own.
    expect((await panel.request(`/api/servers/${id}`, { token: creator.token })).status).toBe(403);
    const mine = await (await panel.request("/api/servers", { token: owner.token })).json();
    expect(mine.servers.map((s: { id: string }) => s.id)).toEqual([id]);
    expect((await (await panel.request("/api/servers", { token: plain.token })).json()).paging.total).toBe(0);
  });

  test("paging: page and limit, default 10", async () => {
    const { panel, admin } = ctx;
    for (let i = 0; i < 12; i++) {
      await panel.db.insert(schema.servers).values({ id: `p${i}`, name: `paged ${String(i).padStart(2, "0")}`, nodeId: ctx.nodeId, createdAt: new Date() }).run();
    }
    const first = await (await panel.request("/api/servers", { token: admin.token })).json();
    expect(first.servers).toHaveLength(10);
    expect(first.paging.total).toBe(12);
    const second = await (await panel.request("/api/servers?page=2&limit=10", { token: admin.token })).json();
    expect(second.servers.map((s: { name: string }) => s.name)).toEqual(["paged 10", "paged 11"]);
    expect(second.servers[0].address).toBe("localhost");
    expect((await panel.request("/api/servers?limit=0", { token: admin.token })).status).toBe(400);
  });

  test("rename: not empty, no special characters, unique", async () => {
    const { panel, admin } = ctx;
    const id = await ctx.createServer("first");
    await ctx.createServer("second");
    const rename = (name: string) => panel.request(`/api/servers/${id}/name/${encodeURIComponent(name)}`, { token: admin.token, method: "PUT" });
    expect(await errorOf(await rename("Second"))).toEqual({ status: 409, code: "ErrDuplicateServerName" });
    expect(await errorOf(await rename("bad?name"))).toEqual({ status: 400, code: "ErrFieldHasURICharacters" });
    expect(await errorOf(await rename(" "))).toEqual({ status: 400, code: "ErrFieldRequired" });
    expect((await rename("Renamed Server")).status).toBe(204);
    expect((await panel.db.select().from(schema.servers).where(eq(schema.servers.id, id)).get())?.name).toBe("Renamed Server");
  });

  test("server users: flags coerced to booleans, unknown emails invited, removal, no handing out what one lacks", async () => {
    const { panel, admin } = ctx;
    const id = await ctx.createServer("shared");
    const friend = await loginAs(panel.db, []);
    const put = (email: string, body: Record<string, unknown>, token = admin.token) => panel.request(`/api/servers/${id}/user/${encodeURIComponent(email)}`, { token, ...jsonInit("PUT", body) });
    expect((await put(friend.email, { email: friend.email, viewServerConsole: "true", startServer: 1, stopServer: false, bogus: true })).status).toBe(204);
    const invited = await put("newcomer@example.com", { viewServerStats: true });
    expect(invited.status).toBe(201);
    expect(await invited.json()).toMatchObject({ invited: true, emailSent: false });
    const list = await (await panel.request(`/api/servers/${id}/user`, { token: admin.token })).json();
    const entry = list.find((u: { email: string }) => u.email === friend.email);
    expect(entry).toMatchObject({ viewServerConsole: true, startServer: true, stopServer: false, deleteServer: false });
    expect(entry).not.toHaveProperty("bogus");
    expect(list.find((u: { email: string }) => u.email === "newcomer@example.com")).toMatchObject({ username: "", viewServerStats: true });

    // A user who may manage users cannot give away, nor take away, a flag they do not hold
    // (newcomer's viewServerStats); the flags they hold they may change.
    await put(friend.email, { editServerUsers: true, viewServerConsole: true });
    expect(await errorOf(await put("newcomer@example.com", { viewServerStats: true, deleteServer: true }, friend.token))).toEqual({ status: 403, code: "ErrNoPermission" });
    expect(await errorOf(await put("newcomer@example.com", { viewServerConsole: true }, friend.token))).toEqual({ status: 403, code: "ErrNoPermission" });
    expect((await put("newcomer@example.com", { viewServerStats: true, viewServerConsole: true }, friend.token)).status).toBe(204);

    expect((await panel.request(`/api/servers/${id}/user/newcomer%40example.com`, { token: admin.token, method: "DELETE" })).status).toBe(204);
    expect(await errorOf(await panel.request(`/api/servers/${id}/user/newcomer%40example.com`, { token: admin.token, method: "DELETE" }))).toEqual({ status: 404, code: "ErrUserNotFound" });
  });

  test("server-level OAuth2 clients: the token reaches only that server, with the owner's flags there", async () => {
    const { panel, admin } = ctx;
    const a = await ctx.createServer("alpha");
    const b = await ctx.createServer("beta");
    const user = await loginAs(panel.db, [SCOPES.usersView]);
    await panel.request(`/api/servers/${a}/user/${encodeURIComponent(user.email)}`, { token: admin.token, ...jsonInit("PUT", { viewServerConsole: true }) });
    await panel.request(`/api/servers/${b}/user/${encodeURIComponent(user.email)}`, { token: admin.token, ...jsonInit("PUT", { viewServerConsole: true, viewServerStats: true }) });
    const created = await (await panel.request(`/api/servers/${a}/oauth2`, { token: user.token, ...jsonInit("POST", { name: "bot", password: "password123" }) })).json();
    expect((await (await panel.request(`/api/servers/${a}/oauth2`, { token: user.token })).json()).map((c: { client_id: string }) => c.client_id)).toEqual([created.id]);
    // Not listed among the account-level clients.
    expect(await (await panel.request("/api/self/oauth2", { token: user.token })).json()).toEqual([]);

    const tokenRes = await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `grant_type=client_credentials&client_id=${created.id}&client_secret=${created.secret}` });
    const bearer = { authorization: `Bearer ${(await tokenRes.json()).access_token}` };
    expect((await panel.request(`/proxy/daemon/server/${a}/console`, { headers: bearer })).status).toBe(200);
    expect((await panel.request(`/proxy/daemon/server/${a}/stats`, { headers: bearer })).status).toBe(403);
    expect((await panel.request(`/proxy/daemon/server/${b}/console`, { headers: bearer })).status).toBe(403);
    expect((await panel.request(`/api/servers/${b}`, { headers: bearer })).status).toBe(403);
    expect((await panel.request("/api/users", { headers: bearer })).status).toBe(403);
    const listed = await (await panel.request("/api/servers", { headers: bearer })).json();
    expect(listed.servers.map((s: { id: string }) => s.id)).toEqual([a]);

    expect((await panel.request(`/api/servers/${a}/oauth2/${created.id}`, { token: user.token, method: "DELETE" })).status).toBe(204);
    expect((await panel.request(`/proxy/daemon/server/${a}/console`, { headers: bearer })).status).toBe(401);
  });

  test("delete: the node forgets the server, the panel its row, users and clients; deleteServer is needed", async () => {
    const { panel, admin } = ctx;
    const id = await ctx.createServer("doomed");
    const holder = await loginAs(panel.db, []);
    const other = await loginAs(panel.db, []);
    await panel.request(`/api/servers/${id}/user/${encodeURIComponent(holder.email)}`, { token: admin.token, ...jsonInit("PUT", { deleteServer: true }) });
    await panel.request(`/api/servers/${id}/user/${encodeURIComponent(other.email)}`, { token: admin.token, ...jsonInit("PUT", { editServerData: true, stopServer: true }) });
    await panel.request(`/api/servers/${id}/oauth2`, { token: other.token, ...jsonInit("POST", { name: "gone soon", password: "password123" }) });
    expect(await errorOf(await panel.request(`/api/servers/${id}`, { token: other.token, method: "DELETE" }))).toEqual({ status: 403, code: "ErrNoPermission" });
    expect(await onNode(id)).toBe(true);
    expect((await panel.request(`/api/servers/${id}`, { token: holder.token, method: "DELETE" })).status).toBe(204);
    expect(await onNode(id)).toBe(false);
    expect(await panel.db.select().from(schema.servers).all()).toHaveLength(0);
    expect(await panel.db.select().from(schema.serverUsers).all()).toHaveLength(0);
    expect(await panel.db.select().from(schema.oauth2Clients).all()).toHaveLength(0);
    expect((await panel.request(`/api/servers/${id}`, { token: admin.token })).status).toBe(404);
  });
});
