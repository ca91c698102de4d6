// puffMob, the third-party mobile client (util/Panel.ts, util/V2Methods/*, PufferpanelSocket.ts),
// against Kiln: its calls as it makes them (fetch with Accept, a bearer token and its User-Agent;
// bodies JSON.stringify'd without a content type, so fetch sends them as text/plain), and the
// fields it reads. Its checkResponse takes a 204 as done and parses every other 2xx as JSON, so
// an answer must be 204 or JSON. Written here from what that client does; none of its code is copied.
import { beforeAll, expect, test } from "bun:test";
import { putTemplate } from "../../server/services/templates";
import { echoTemplate } from "../helpers/node";
import { ADMIN, NEEDS_PASSWORD, expectTypes, ok, openSocket, refusedWithoutPassword, runCalls, type Answer, type Call, type Compat } from "./harness";

/** What checkResponse accepts: 204, or a 2xx whose body is JSON. */
function accepted(a: Answer): void {
  ok(a);
  if (a.status !== 204) expect(typeof a.body === "string" ? `not JSON: ${a.body}` : "JSON").toBe("JSON");
}

const srv = (c: Compat) => c.state.serverId as string;
const daemon = (c: Compat, rest = "") => `/proxy/daemon/server/${srv(c)}${rest}`;
const OTHER = { email: "mob-user@example.com", username: "mob-user", password: "mob-user-pass-1" };

const calls: Call[] = [
  { name: "login", method: "POST", path: () => "/auth/login", headers: () => ({ "content-type": "application/json" }), body: () => ({ email: ADMIN.email, password: ADMIN.password }), check: (a, c) => {
    accepted(a);
    expect(typeof a.body.session).toBe("string");
    c.state.session = a.body.session;
  } },
  { name: "getConfig", method: "GET", path: () => "/api/config", check: (a) => {
    accepted(a);
    expectTypes(a.body, { "branding.name": "string", "themes.active": "string", registrationEnabled: "boolean" });
  } },
  { name: "get.nodes", method: "GET", path: () => "/api/nodes", check: (a, c) => {
    accepted(a);
    c.state.nodeId = a.body[0].id;
  } },
  { name: "get.node", method: "GET", path: (c) => `/api/nodes/${c.state.nodeId}`, check: (a) => {
    accepted(a);
    expectTypes(a.body, { id: "number", name: "string", publicHost: "string", publicPort: "number" });
  } },
  { name: "get.nodeDeployment", method: "GET", path: (c) => `/api/nodes/${c.state.nodeId}/deployment`, check: accepted },
  { name: "get.self", method: "GET", path: () => "/api/self", check: (a) => {
    accepted(a);
    expect(a.body).toMatchObject({ email: ADMIN.email, username: ADMIN.username });
  } },
  { name: "get.selfOauth2", method: "GET", path: () => "/api/self/oauth2", check: accepted },
  { name: "get.setting otp", method: "GET", path: () => "/api/self/otp", check: (a) => {
    accepted(a);
    expect(a.body.otpEnabled).toBe(false);
  } },
  { name: "get.templates", method: "GET", path: () => "/api/templates", check: accepted },
  { name: "get.settings (user settings)", method: "GET", path: () => "/api/userSettings", check: accepted },
  { name: "get.panelSetting", method: "GET", path: () => "/api/settings/panel.settings.companyName", check: (a) => {
    accepted(a);
    expect("value" in a.body).toBe(true);
  } },
  // A new client needs the account's current password (a session alone makes none): the call as
  // puffMob makes it is refused with the field named, and made with the password it goes through.
  { name: "create.oauth2", method: "POST", path: () => "/api/self/oauth2", body: () => ({ name: "mob", description: "phone" }), differs: NEEDS_PASSWORD, check: refusedWithoutPassword },
  { name: "create.oauth2 with the account's password", method: "POST", path: () => "/api/self/oauth2", body: () => ({ name: "mob", description: "phone", password: ADMIN.password }), check: (a, c) => {
    accepted(a);
    c.state.clientId = a.body.id;
  } },
  { name: "delete.oauth2", method: "DELETE", path: (c) => `/api/self/oauth2/${c.state.clientId}`, check: accepted },
  { name: "create.user", method: "POST", path: () => "/api/users", body: () => ({ ...OTHER, viewServers: true }), check: accepted },
  { name: "get.users", method: "GET", path: () => "/api/users", check: (a, c) => {
    accepted(a);
    expectTypes(a.body, { "paging.page": "number", "paging.pageSize": "number", "paging.maxSize": "number", "paging.total": "number" });
    c.state.userId = a.body.users.find((u: { email: string }) => u.email === OTHER.email).id;
  } },
  { name: "get.user", method: "GET", path: (c) => `/api/users/${c.state.userId}`, check: accepted },
  { name: "get.userPerms (flat flags)", method: "GET", path: (c) => `/api/users/${c.state.userId}/perms`, check: (a) => {
    accepted(a);
    expectTypes(a.body, { admin: "boolean", viewServers: "boolean", createServers: "boolean", panelSettings: "boolean" });
  } },
  { name: "edit.userPerms (ModelsPermissionView)", method: "PUT", path: (c) => `/api/users/${c.state.userId}/perms`, body: (c) => ({ id: c.state.userId, email: OTHER.email, username: OTHER.username, admin: false, createServers: false, deleteServers: false, deployNodes: false, editNodes: false, editServerAdmin: false, editTemplates: false, editUsers: false, panelSettings: false, viewNodes: true, viewServers: true, viewTemplates: false, viewUsers: false }), check: (a) => {
    accepted(a);
    expect(a.body).toMatchObject({ viewNodes: true, viewServers: true, admin: false });
  } },
  { name: "edit.user", method: "POST", path: (c) => `/api/users/${c.state.userId}`, body: () => ({ email: OTHER.email, username: "mob-user-2", password: OTHER.password }), check: accepted },
  { name: "edit.settings", method: "POST", path: () => "/api/settings", body: () => ({ "panel.settings.companyName": "Mobile" }), check: accepted },
  { name: "edit.self", method: "PUT", path: () => "/api/self", body: () => ({ password: ADMIN.password, username: ADMIN.username, email: ADMIN.email }), check: accepted },
  { name: "get.servers (the app's server list)", method: "GET", path: () => "/api/servers", check: (a, c) => {
    accepted(a);
    const server = a.body.servers[0];
    expectTypes(server, { id: "string", name: "string", "node.name": "string", "node.publicHost": "string", type: "string" });
    c.state.serverId = server.id;
  } },
  { name: "get.servers → serverStatus per server", method: "GET", path: (c) => daemon(c, "/status"), check: (a) => {
    accepted(a);
    expect(typeof a.body.running).toBe("boolean");
  } },
  { name: "get.server", method: "GET", path: (c) => `/api/servers/${srv(c)}?perms`, check: (a) => {
    accepted(a);
    expectTypes(a.body, { "server.id": "string", "server.node.name": "string", "permissions.viewServerConsole": "boolean" });
  } },
  { name: "get.serverUsers", method: "GET", path: (c) => `/api/servers/${srv(c)}/user`, check: accepted },
  { name: "create.serverUser (PUT)", method: "PUT", path: (c) => `/api/servers/${srv(c)}/user/${OTHER.email}`, body: (c) => ({ email: OTHER.email, new: true, serverIdentifier: srv(c), editServerData: false, editServerUsers: false, installServer: false, putServerFiles: false, sendServerConsole: false, sftpServer: false, startServer: false, stopServer: false, viewServerConsole: true, viewServerFiles: false, viewServerStats: true }), check: accepted },
  { name: "edit.serverUser", method: "PUT", path: (c) => `/api/servers/${srv(c)}/user/${OTHER.email}`, body: (c) => ({ username: OTHER.username, email: OTHER.email, serverIdentifier: srv(c), viewServerConsole: true, viewServerStats: false }), check: accepted },
  { name: "delete.serverUser", method: "DELETE", path: (c) => `/api/servers/${srv(c)}/user/${OTHER.email}`, check: accepted },
  { name: "get.serverOauth2", method: "GET", path: (c) => `/api/servers/${srv(c)}/oauth2`, check: accepted },
  { name: "create.serverOauth2", method: "POST", path: (c) => `/api/servers/${srv(c)}/oauth2`, body: () => ({ name: "mob", description: "" }), differs: NEEDS_PASSWORD, check: refusedWithoutPassword },
  { name: "create.serverOauth2 with the account's password", method: "POST", path: (c) => `/api/servers/${srv(c)}/oauth2`, body: () => ({ name: "mob", description: "", password: ADMIN.password }), check: (a, c) => {
    accepted(a);
    c.state.serverClient = a.body.id;
  } },
  { name: "delete.serverOauth2", method: "DELETE", path: (c) => `/api/servers/${srv(c)}/oauth2/${c.state.serverClient}`, check: accepted },
  { name: "edit.serverName", method: "PUT", path: (c) => `/api/servers/${srv(c)}/name/mobile-renamed`, check: accepted },
  { name: "get.data", method: "GET", path: (c) => daemon(c, "/data"), check: (a) => {
    accepted(a);
    expect(typeof a.body.data).toBe("object");
  } },
  // Get.daemon() asks "/" under its daemon base: PufferPanel's daemon root.
  { name: "get.daemon", method: "GET", path: () => "/proxy/daemon/", check: (a) => {
    accepted(a);
    expect(a.body).toEqual({ message: "daemon is running" });
  } },
  // Start and install without wait are queued: 202 with no body, exactly as PufferPanel's daemon
  // answers them (puffMob's checkResponse then fails to parse it, against PufferPanel as here).
  { name: "actions.install", method: "POST", path: (c) => daemon(c, "/install"), check: (a) => expect([a.status, a.body]).toEqual([202, ""]) },
  { name: "actions.start", method: "POST", path: (c) => daemon(c, "/start"), check: (a) => expect([a.status, a.body]).toEqual([202, ""]) },
  { name: "actions.execute (the command as the body)", method: "POST", path: (c) => daemon(c, "/console"), body: () => "from-the-phone", check: accepted },
  { name: "get.console (epoch in Unix seconds)", method: "GET", path: (c) => daemon(c, "/console"), check: (a) => {
    accepted(a);
    expect(typeof a.body.epoch).toBe("number");
    expect(Math.abs(a.body.epoch - Date.now() / 1000)).toBeLessThan(60);
  } },
  { name: "get.stats", method: "GET", path: (c) => daemon(c, "/stats"), check: (a) => {
    accepted(a);
    expectTypes(a.body, { cpu: "number", memory: "number" });
  } },
  { name: "actions.stop", method: "POST", path: (c) => daemon(c, "/stop"), check: accepted },
  { name: "actions.kill", method: "POST", path: (c) => daemon(c, "/kill"), check: accepted },
  { name: "get.file (the root)", method: "GET", path: (c) => daemon(c, "/file/"), check: accepted },
  { name: "delete.file", method: "DELETE", path: (c) => daemon(c, "/file/motd.txt"), check: accepted },
  // Its ServerDataResponse sends each variable whole, as PufferPanel 2's daemon reads it: the
  // value is taken, the fields beside it must match the server's variable (never dropped unseen).
  { name: "edit.serverData (each variable whole)", method: "POST", path: (c) => daemon(c, "/data"), body: () => ({ data: { greeting: { type: "string", display: "Greeting", required: true, userEdit: true, internal: false, value: "from the phone" } } }), check: async (a, c) => {
    accepted(a);
    const stored = await c.ctx.node.json("GET", `/daemon/server/${srv(c)}/data`);
    expect(stored.data.greeting).toBe("from the phone");
  } },
  { name: "edit.serverData (a field that is not the server's)", method: "POST", path: (c) => daemon(c, "/data"), body: () => ({ data: { greeting: { display: "Renamed", value: "x" } } }), differs: "only the value changes; a differing display is refused, not dropped", check: async (a) => {
    expect(a.status).toBe(400);
    expect(a.body.error).toMatchObject({ code: "ErrFieldNotEqual", metadata: { field1: "data.greeting.display" } });
  } },
  { name: "delete.user", method: "DELETE", path: (c) => `/api/users/${c.state.userId}`, check: accepted },
  { name: "delete.server", method: "DELETE", path: (c) => `/api/servers/${srv(c)}`, check: accepted },
  { name: "delete.template", method: "DELETE", path: () => "/api/templates/mob-copy", check: accepted },
];

const compat = runCalls("puffMob", calls, (c, path) => (path === "/auth/login" || path === "/api/config" ? {} : { accept: "application/json", authorization: `Bearer ${c.state.session ?? ""}`, "user-agent": "puffMob/0.3.1" }));
socket(compat);

/** PufferpanelSocket: Authorization on the upgrade; status, replay {since: 0}, stat; messages without data are skipped. */
function socket(c: Compat): void {
  test("puffMob: the socket — status, replay {since: 0}, stat; a refusal reaches no listener", async () => {
    const id = await c.ctx.createServer("mobile-socket");
    c.state.servers = { socket: id };
    await c.ctx.node.call("POST", `/daemon/server/${id}/install?wait=true`);
    await c.ctx.node.call("POST", `/daemon/server/${id}/start?wait=true`);
    const s = await openSocket(`${c.base.replace("http", "ws")}/proxy/daemon/socket/${id}`, { authorization: `Bearer ${c.state.session}` });
    const send = (message: Record<string, unknown>) => s.ws.send(JSON.stringify(message));
    send({ type: "status" });
    send({ type: "replay", since: 0 });
    send({ type: "stat" });
    await s.next((m) => m.type === "status" && typeof m.data.running === "boolean", "status");
    await s.next((m) => m.type === "console" && Array.isArray(m.data.logs) && m.data.logs.join("").includes("installation finished"), "the whole console replayed (a list, as replays are)");
    await s.next((m) => m.type === "stat" && typeof m.data.cpu === "number", "stat");
    // Its listeners skip a packet without data or of another type: a refusal is such a packet.
    send({ type: "unknown" });
    const refusal = await s.next((m) => m.error !== undefined, "the refusal");
    expect(refusal.type === undefined && refusal.data === undefined).toBe(true);
    s.ws.close();
  }, 30_000);
}

// puffMob's listing starts from GET /api/servers: the run begins with one server to list
// (registered after runCalls' own beforeAll, so the panel is up).
beforeAll(async () => {
  await compat.ctx.createServer("mobile");
  await putTemplate(compat.ctx.panel.db, "mob-copy", echoTemplate());
});
