// PufferPanel's browser API client as of early 2023 (pufferpanel/pufferpanel, client/src/plugins/
// api/*.js) against Kiln: every call it makes, as it makes it (axios: JSON bodies, a
// bearer token on /api and /proxy only, strings sent as they are), and the fields it reads from
// each answer. Written here from what that client does; none of its code is copied.
import { expect, test } from "bun:test";
import { totpCode } from "../helpers/totp";
import { ADMIN, NEEDS_PASSWORD, expectTypes, ok, openSocket, refusedWithoutPassword, runCalls, type Call, type Compat } from "./harness";

const api = (c: Compat) => c.state.session as string;
const srv = (c: Compat) => c.state.serverId as string;
const daemon = (c: Compat, rest = "") => `/proxy/daemon/server/${srv(c)}${rest}`;
/** The client's getServerFileUrl: a leading "/" dropped, each segment encoded. */
const fileUrl = (c: Compat, path: string) => daemon(c, `/file/${encodeURIComponent(path.replace(/^\//, "")).replace(/%2F/g, "/")}`);
const USER = { username: "compat-user", email: "compat-user@example.com", password: "compat-user-pass-1" };

const calls: Call[] = [
  // index.js: authentication, config, self, settings
  { name: "login (wrong password shows a message: 400, not the silent 401)", method: "POST", path: () => "/auth/login", body: () => ({ email: ADMIN.email, password: "wrong-password" }), check: (a) => {
    expect(a.status).toBe(400);
    expect(a.body.error.code).toBe("ErrInvalidCredentials");
  } },
  { name: "login", method: "POST", path: () => "/auth/login", body: () => ({ email: ADMIN.email, password: ADMIN.password }), check: (a, c) => {
    ok(a);
    expect(a.body.otpNeeded).toBeFalsy();
    expect(typeof a.body.session).toBe("string");
    expect(a.body.scopes).toContain("servers.admin");
    c.state.session = a.body.session;
  } },
  { name: "reauth", method: "POST", path: () => "/auth/reauth", headers: (c) => ({ cookie: `puffer_auth=${api(c)}` }), check: (a, c) => {
    ok(a);
    expect(typeof a.body.session).toBe("string");
    c.state.session = a.body.session;
  } },
  { name: "getConfig", method: "GET", path: () => "/api/config", check: (a) => {
    ok(a);
    expect(typeof a.body.themes.active).toBe("string");
    expect(Array.isArray(a.body.themes.available)).toBe(true);
    expect(typeof a.body.branding.name).toBe("string");
    expect(typeof a.body.registrationEnabled).toBe("boolean");
  } },
  { name: "getTheme", method: "GET", path: () => "/theme/kiln.tar", check: (a) => ok(a) },
  { name: "getSelf", method: "GET", path: () => "/api/self", check: (a) => {
    ok(a);
    expect(a.body).toMatchObject({ username: ADMIN.username, email: ADMIN.email });
  } },
  { name: "updateSelf", method: "PUT", path: () => "/api/self", body: () => ({ username: ADMIN.username, email: ADMIN.email, password: ADMIN.password }), check: (a) => ok(a) },
  { name: "getOtp", method: "GET", path: () => "/api/self/otp", check: (a) => {
    ok(a);
    expect(a.body.otpEnabled).toBe(false);
  } },
  { name: "startOtpEnroll", method: "POST", path: () => "/api/self/otp", check: (a, c) => {
    ok(a);
    expect(typeof a.body.secret).toBe("string");
    expect(a.body.img).toStartWith("data:image/png");
    c.state.otpSecret = a.body.secret;
  } },
  // Switching two-factor on needs the account's current password too (a session alone would let a
  // cookie thief lock its holder out): the call as the client makes it is refused with the field named.
  { name: "validateOtpEnroll", method: "PUT", path: () => "/api/self/otp", body: (c) => ({ token: totpCode(c.state.otpSecret) }), differs: "switching two-factor on needs the account's current password", check: refusedWithoutPassword },
  { name: "validateOtpEnroll with the account's password (answer body is empty)", method: "PUT", path: () => "/api/self/otp", body: (c) => ({ token: totpCode(c.state.otpSecret), password: ADMIN.password }), check: (a) => {
    ok(a);
    expect(a.body).toBe("");
  } },
  { name: "disableOtp (answer body is empty)", method: "DELETE", path: (c) => `/api/self/otp/${totpCode(c.state.otpSecret, Date.now() + 30_000)}`, check: (a) => {
    ok(a);
    expect(a.body).toBe("");
  } },
  { name: "getUserOAuthClients", method: "GET", path: () => "/api/self/oauth2", check: (a) => {
    ok(a);
    expect(Array.isArray(a.body)).toBe(true);
  } },
  // A new client needs the account's current password (a session alone makes none): the call as
  // the client makes it is refused with the field named, and made with the password it goes through.
  { name: "createUserOAuthClient", method: "POST", path: () => "/api/self/oauth2", body: () => ({ name: "compat", description: "from the compat run" }), differs: NEEDS_PASSWORD, check: refusedWithoutPassword },
  { name: "createUserOAuthClient with the account's password", method: "POST", path: () => "/api/self/oauth2", body: () => ({ name: "compat", description: "from the compat run", password: ADMIN.password }), check: (a, c) => {
    ok(a);
    expect(typeof a.body.id).toBe("string");
    expect(typeof a.body.secret).toBe("string");
    c.state.clientId = a.body.id;
  } },
  { name: "deleteUserOAuthClient (status 204)", method: "DELETE", path: (c) => `/api/self/oauth2/${c.state.clientId}`, check: (a) => ok(a, 204) },
  { name: "setSetting", method: "PUT", path: () => "/api/settings/panel.settings.companyName", body: () => ({ value: "Compat Hosting" }), check: (a) => ok(a) },
  { name: "getSetting", method: "GET", path: () => "/api/settings/panel.settings.companyName", check: (a) => {
    ok(a);
    expect(a.body.value).toBe("Compat Hosting");
  } },
  { name: "setSettings", method: "POST", path: () => "/api/settings", body: () => ({ "panel.settings.companyName": "Compat Hosting", "panel.registrationEnabled": true }), check: (a) => ok(a) },
  { name: "register (registration switched on above)", method: "POST", path: () => "/auth/register", body: () => ({ username: "self-made", email: "self-made@example.com", password: "self-made-pass-1" }), check: (a) => {
    ok(a);
    expect(typeof a.body.token).toBe("string");
    expect(Array.isArray(a.body.scopes)).toBe(true);
  } },
  { name: "setUserSetting", method: "PUT", path: () => "/api/userSettings/dark", body: () => ({ value: "true" }), check: (a) => ok(a) },
  { name: "getUserSettings (a list of key and value)", method: "GET", path: () => "/api/userSettings", check: (a) => {
    ok(a);
    expect(a.body).toContainEqual({ key: "dark", value: "true" });
  } },

  // nodes.js
  { name: "getNodes", method: "GET", path: () => "/api/nodes", check: (a, c) => {
    ok(a);
    expectTypes(a.body[0], { id: "number", name: "string" });
    c.state.nodeId = a.body[0].id;
  } },
  { name: "createNode (ports as numbers)", method: "POST", path: () => "/api/nodes", body: () => ({ name: "compat-node", publicHost: "node.example.com", publicPort: 8080, privateHost: "127.0.0.1", privatePort: 8080, sftpPort: 5657 }), check: (a) => ok(a) },
  { name: "getNode", method: "GET", path: (c) => `/api/nodes/${c.state.nodeId}`, check: (a) => {
    ok(a);
    expectTypes(a.body, { name: "string", publicHost: "string", publicPort: "number", sftpPort: "number" });
  } },
  { name: "getNodeDeployment", method: "GET", path: (c) => `/api/nodes/${c.state.nodeId}/deployment`, check: (a) => ok(a) },
  { name: "getNodes (the new node's id)", method: "GET", path: () => "/api/nodes", check: (a, c) => {
    c.state.newNodeId = a.body.find((n: { name: string }) => n.name === "compat-node").id;
  } },
  { name: "updateNode", method: "PUT", path: (c) => `/api/nodes/${c.state.newNodeId}`, body: () => ({ name: "compat-node-2", publicHost: "node.example.com", publicPort: 8081, privateHost: "127.0.0.1", privatePort: 8081, sftpPort: 5658 }), check: (a) => ok(a) },
  { name: "deleteNode", method: "DELETE", path: (c) => `/api/nodes/${c.state.newNodeId}`, check: (a) => ok(a) },

  // users.js (createUser and updateUser send the whole user form, flags included, to …/perms too)
  { name: "createUser", method: "POST", path: () => "/api/users", body: () => ({ ...USER, viewServers: true }), check: (a, c) => {
    ok(a);
    c.state.userId = a.body.id;
  } },
  { name: "createUser → updateUserPermissions (flat flags)", method: "PUT", path: (c) => `/api/users/${c.state.userId}/perms`, body: () => ({ ...USER, viewServers: true, viewTemplates: true }), check: (a) => ok(a) },
  { name: "getUsers", method: "GET", path: () => "/api/users?page=1&limit=10", check: (a) => {
    ok(a);
    expect(a.body.users.length).toBeGreaterThan(0);
    expect(typeof a.body.paging.total).toBe("number");
  } },
  { name: "searchUsers", method: "GET", path: () => "/api/users?username=*compat-us*", check: (a) => {
    ok(a);
    expect(a.body.users.map((u: { username: string }) => u.username)).toEqual([USER.username]);
  } },
  { name: "getUser", method: "GET", path: (c) => `/api/users/${c.state.userId}`, check: (a, c) => {
    ok(a);
    expect(a.body).toMatchObject({ username: USER.username, email: USER.email });
    c.state.userAnswer = a.body;
  } },
  { name: "getUserPermissions (flat flags)", method: "GET", path: (c) => `/api/users/${c.state.userId}/perms`, check: (a, c) => {
    ok(a);
    expect(a.body).toMatchObject({ viewServers: true, viewTemplates: true, admin: false, editUsers: false });
    c.state.editedUser = { ...c.state.userAnswer, ...a.body, viewTemplates: true, editTemplates: true };
  } },
  { name: "updateUser", method: "POST", path: (c) => `/api/users/${c.state.userId}`, body: () => ({ username: USER.username, email: USER.email, viewServers: true }), check: (a) => ok(a) },
  { name: "updateUser → updateUserPermissions (a flag left out is taken away)", method: "PUT", path: (c) => `/api/users/${c.state.userId}/perms`, body: () => ({ username: USER.username, email: USER.email, viewServers: true }), check: (a) => {
    ok(a);
    expect(a.body.viewTemplates).toBe(false);
  } },
  // getUser merges the account and its permissions ({...user, ...perms}: Kiln's scopes list comes
  // along), the form edits flags, updateUser puts the whole object to …/perms.
  { name: "getUser → edit → updateUserPermissions (the merged object, scopes beside the flags)", method: "PUT", path: (c) => `/api/users/${c.state.userId}/perms`, body: (c) => c.state.editedUser, check: async (a, c) => {
    ok(a);
    expect(a.body).toMatchObject({ viewServers: true, viewTemplates: true, editTemplates: true });
  } },

  // templates.js
  { name: "getTemplates", method: "GET", path: () => "/api/templates", check: (a) => {
    ok(a);
    expectTypes(a.body.find((t: { name: string }) => t.name === "echo"), { display: "string" });
  } },
  { name: "getImportableTemplates (a list of names)", method: "POST", path: () => "/api/templates/import", check: (a) => {
    ok(a);
    expect(a.body.length).toBeGreaterThan(0);
    expect(a.body.every((n: unknown) => typeof n === "string")).toBe(true);
  } },
  { name: "importTemplate", method: "POST", path: () => "/api/templates/import/minecraft-vanilla", check: (a) => ok(a) },
  { name: "getTemplate", method: "GET", path: () => "/api/templates/echo", check: (a, c) => {
    ok(a);
    expect(a.body).toMatchObject({ name: "echo", data: { greeting: { value: "world" } } });
    expectTypes(a.body, { display: "string", "run.command": "string" });
    c.state.template = a.body;
  } },
  { name: "saveTemplate (templateToApi's shape)", method: "PUT", path: () => "/api/templates/compat-copy", body: (c) => toApi(c.state.template, "compat-copy"), check: (a) => ok(a) },
  { name: "deleteTemplate", method: "DELETE", path: () => "/api/templates/compat-copy", check: (a) => ok(a) },

  // servers.js over HTTP
  { name: "createServer (AddServer's body: the template as read, values, node, users, name)", method: "POST", path: () => "/api/servers", body: (c) => {
    const data = toApi(c.state.template, undefined);
    for (const variable of Object.values(data.data) as Array<{ type: string; value: unknown }>) if (variable.type === "integer") variable.value = Number(variable.value);
    data.data.greeting.value = "compat";
    return { ...data, node: c.state.nodeId, users: [ADMIN.username, USER.username], name: "compat-server", environment: { type: "standard" } };
  }, check: (a, c) => {
    ok(a);
    expect(typeof a.body.id).toBe("string");
    c.state.serverId = a.body.id;
    c.state.servers = { main: a.body.id };
  } },
  { name: "getServers (node.publicHost, node.name, type, paging.total)", method: "GET", path: () => "/api/servers?page=1&limit=10", check: (a) => {
    ok(a);
    const server = a.body.servers.find((s: { name: string }) => s.name === "compat-server");
    expectTypes(server, { id: "string", "node.name": "string", "node.publicHost": "string", "node.id": "number", "node.publicPort": "number", type: "string" });
    expect(a.body.paging.total).toBeGreaterThan(0);
  } },
  { name: "getServer", method: "GET", path: (c) => `/api/servers/${srv(c)}?perms`, check: (a) => {
    ok(a);
    expect(a.body.server.name).toBe("compat-server");
    expect(a.body.permissions).toMatchObject({ sendServerConsole: true });
  } },
  { name: "getServerDefinition", method: "GET", path: (c) => daemon(c), check: (a) => {
    ok(a);
    expect(a.body.data.greeting.value).toBe("compat");
  } },
  { name: "getServerData", method: "GET", path: (c) => daemon(c, "/data"), check: (a) => {
    ok(a);
    expect(a.body.data.greeting).toBeDefined();
  } },
  { name: "updateServerData", method: "POST", path: (c) => daemon(c, "/data"), body: () => ({ data: { greeting: "again" } }), check: (a) => ok(a) },
  { name: "getServerUsers (the second user was shared)", method: "GET", path: (c) => `/api/servers/${srv(c)}/user`, check: (a) => {
    ok(a);
    expect(a.body.map((u: { email: string }) => u.email)).toContain(USER.email);
  } },
  { name: "updateServerUser", method: "PUT", path: (c) => `/api/servers/${srv(c)}/user/${USER.email}`, body: () => ({ email: USER.email, username: USER.username, viewServerConsole: true, sendServerConsole: false }), check: (a) => ok(a) },
  { name: "deleteServerUser", method: "DELETE", path: (c) => `/api/servers/${srv(c)}/user/${USER.email}`, check: (a) => ok(a) },
  { name: "serverAction install (wait=true)", method: "POST", path: (c) => daemon(c, "/install?wait=true"), check: (a) => ok(a) },
  { name: "serverAction start (wait=false)", method: "POST", path: (c) => daemon(c, "/start?wait=false"), check: (a) => ok(a) },
  { name: "getServerStatus", method: "GET", path: (c) => daemon(c, "/status"), check: async (a) => {
    ok(a);
    expect(typeof a.body.running).toBe("boolean");
  } },
  { name: "serverCommand (the command as the body)", method: "POST", path: (c) => daemon(c, "/console"), body: () => "hello-over-http", check: (a) => ok(a) },
  // The client's own clock in seconds: only what came after, never the whole buffer again.
  { name: "getServerConsole (time and epoch in seconds)", method: "GET", path: (c) => daemon(c, `/console?time=${Math.floor(Date.now() / 1000) + 5}`), check: (a) => {
    ok(a);
    expect(Array.isArray(a.body.logs)).toBe(true);
    expect(Math.abs(a.body.epoch - Date.now() / 1000)).toBeLessThan(60);
    expect(a.body.logs.join("")).not.toContain("hello-over-http");
  } },
  { name: "getServerStats", method: "GET", path: (c) => daemon(c, "/stats"), check: (a) => {
    ok(a);
    expect(typeof a.body.cpu).toBe("number");
    expect(typeof a.body.memory).toBe("number");
  } },
  { name: "getServerTasks ({tasks})", method: "GET", path: (c) => daemon(c, "/tasks"), check: (a) => {
    ok(a);
    expect(a.body.tasks).toEqual({});
  } },
  { name: "createServerTask", method: "POST", path: (c) => daemon(c, "/tasks"), body: () => ({ name: "Say", cronSchedule: "0 3 * * *", operations: [{ type: "console", command: "from-a-task" }] }), check: (a, c) => {
    ok(a);
    c.state.taskId = a.body.id;
  } },
  { name: "editServerTask", method: "PUT", path: (c) => daemon(c, `/tasks/${c.state.taskId}`), body: () => ({ name: "Say", cronSchedule: "", operations: [{ type: "console", command: "from-a-task" }] }), check: (a) => ok(a) },
  { name: "runServerTask", method: "POST", path: (c) => daemon(c, `/tasks/${c.state.taskId}/run`), check: (a) => ok(a) },
  { name: "deleteServerTask", method: "DELETE", path: (c) => daemon(c, `/tasks/${c.state.taskId}`), check: (a) => ok(a) },
  { name: "createServerFolder (folder=true)", method: "PUT", path: (c) => `${fileUrl(c, "/conf")}?folder=true`, check: (a) => ok(a) },
  { name: "uploadServerFile (multipart, field file)", method: "PUT", path: (c) => fileUrl(c, "/conf/app.txt"), body: () => withFile("file", "setting=1\n"), check: (a) => ok(a) },
  { name: "downloadServerFile (a folder: files and path)", method: "GET", path: (c) => fileUrl(c, "/conf"), check: (a) => {
    ok(a);
    expect(a.body.files.map((f: { name: string }) => f.name)).toEqual(["app.txt"]);
  } },
  { name: "downloadServerFile (a file, as text)", method: "GET", path: (c) => fileUrl(c, "/conf/app.txt"), check: (a) => {
    ok(a);
    expect(a.body).toBe("setting=1\n");
  } },
  { name: "archiveServerFiles (sources keep their leading '/')", method: "POST", path: (c) => daemon(c, "/archive/conf.zip"), body: () => ["/conf"], check: (a) => ok(a) },
  { name: "deleteServerFile", method: "DELETE", path: (c) => fileUrl(c, "/conf/app.txt"), check: (a) => ok(a) },
  { name: "extractServerFile (destination '/')", method: "GET", path: (c) => daemon(c, `/extract/conf.zip?destination=${encodeURIComponent("/")}`), check: (a) => ok(a) },
  { name: "downloadServerFile (extracted back to the root)", method: "GET", path: (c) => fileUrl(c, "/conf"), check: (a) => {
    ok(a);
    expect(a.body.files.map((f: { name: string }) => f.name)).toEqual(["app.txt"]);
  } },
  { name: "updateServerName", method: "PUT", path: (c) => `/api/servers/${srv(c)}/name/${encodeURIComponent("compat server 2")}`, check: (a) => ok(a) },
  { name: "updateServerDefinition", method: "POST", path: (c) => daemon(c), body: (c) => ({ ...c.state.template, data: { ...c.state.template.data, greeting: { ...c.state.template.data.greeting, value: "defined" } } }), check: (a) => ok(a) },
  { name: "reloadServer", method: "POST", path: (c) => daemon(c, "/reload"), check: (a) => ok(a) },
  { name: "getServerOAuthClients", method: "GET", path: (c) => `/api/servers/${srv(c)}/oauth2`, check: (a) => {
    ok(a);
    expect(Array.isArray(a.body)).toBe(true);
  } },
  { name: "createServerOAuthClient", method: "POST", path: (c) => `/api/servers/${srv(c)}/oauth2`, body: () => ({ name: "srv", description: "" }), differs: NEEDS_PASSWORD, check: refusedWithoutPassword },
  { name: "createServerOAuthClient with the account's password", method: "POST", path: (c) => `/api/servers/${srv(c)}/oauth2`, body: () => ({ name: "srv", description: "", password: ADMIN.password }), check: (a, c) => {
    ok(a);
    c.state.serverClient = a.body.id;
  } },
  { name: "deleteServerOAuthClient", method: "DELETE", path: (c) => `/api/servers/${srv(c)}/oauth2/${c.state.serverClient}`, check: (a) => ok(a) },
  { name: "serverAction stop (wait=false: 204)", method: "POST", path: (c) => daemon(c, "/stop?wait=false"), check: (a) => ok(a, 204) },
  { name: "serverAction kill (wait=false: 204)", method: "POST", path: (c) => daemon(c, "/kill?wait=false"), check: (a) => ok(a, 204) },
  { name: "updatePassword", method: "PUT", path: () => "/api/self", body: () => ({ password: ADMIN.password, newPassword: `${ADMIN.password}-new` }), check: (a) => ok(a) },
  { name: "deleteUser", method: "DELETE", path: (c) => `/api/users/${c.state.userId}`, check: (a) => ok(a) },
  { name: "deleteServer", method: "DELETE", path: (c) => `/api/servers/${srv(c)}`, check: (a, c) => {
    ok(a);
    c.state.servers = {};
  } },
];

/** templateToApi: the editor's form back to the API's shape (stop or stopCode, variables as a map). */
function toApi(template: any, name: string | undefined): any {
  return {
    id: undefined,
    name,
    display: template.display,
    type: template.type,
    install: template.install,
    run: { ...template.run },
    data: structuredClone(template.data),
    environment: template.environment,
    supportedEnvironments: template.supportedEnvironments,
    requirements: template.requirements,
  };
}

function withFile(field: string, text: string): FormData {
  const form = new FormData();
  form.append(field, new Blob([text]));
  return form;
}

const compat = runCalls("spec-era client", calls, (c, path) => (path.startsWith("/api") || path.startsWith("/proxy") ? { authorization: `Bearer ${c.state.session ?? ""}` } : {}));

// serverSocket.js: the socket messages (fields beside the type) and the reads of its events.
socketCalls(compat);

function socketCalls(c: Compat) {
  test("spec-era client: the socket — status, stat, replay {since}, console {command}, file {action, path}; a refusal is no event", async () => {
    // A second server for the socket, made as the client makes one.
    const created = await fetch(`${c.base}/api/servers`, {
      method: "POST",
      headers: { authorization: `Bearer ${c.state.session}`, "content-type": "application/json" },
      body: JSON.stringify({ ...toApi(c.state.template, undefined), node: c.state.nodeId, users: [ADMIN.username], name: "compat-socket", environment: { type: "standard" } }),
    });
    expect(created.status).toBe(201);
    const id = (await created.json()).id as string;
    c.state.servers = { socket: id };
    const post = (path: string) => fetch(`${c.base}/proxy/daemon/server/${id}${path}`, { method: "POST", headers: { authorization: `Bearer ${c.state.session}` } });
    expect((await post("/install?wait=true")).status).toBeLessThan(300);
    // The browser sends its cookie on the upgrade: the client keeps the session in its own cookie, puffer_auth.
    const s = await openSocket(`${c.base.replace("http", "ws")}/proxy/daemon/socket/${id}`, { cookie: `puffer_auth=${c.state.session}`, origin: c.base });
    const send = (message: Record<string, unknown>) => s.ws.send(JSON.stringify(message));
    send({ type: "start" });
    await s.next((m) => m.type === "status" && m.data.running === true, "running");
    send({ type: "status" });
    send({ type: "stat" });
    await s.next((m) => m.type === "stat" && typeof m.data.cpu === "number" && typeof m.data.memory === "number", "stat");
    send({ type: "console", command: "typed-by-the-client" });
    await s.next((m) => m.type === "console" && JSON.stringify(m.data.logs).includes("got typed-by-the-client"), "the command's echo");
    send({ type: "replay", since: Math.floor(Date.now() / 1000) - 60 });
    await s.next((m) => m.type === "console" && Array.isArray(m.data.logs) && m.data.logs.join("").includes("typed-by-the-client"), "replay since a minute ago, in seconds");
    send({ type: "file", action: "create", path: "/made" });
    await s.next((m) => m.type === "file" && m.data.files.some((f: { name: string }) => f.name === "made"), "folder created, listing");
    send({ type: "file", action: "get", path: "/" });
    await s.next((m) => m.type === "file" && m.data.path === "" && Array.isArray(m.data.files), "root listing");
    send({ type: "file", action: "delete", path: "/made" });
    await s.next((m) => m.type === "file" && !m.data.files.some((f: { name: string }) => f.name === "made"), "folder deleted, listing");
    // Something the client's ServerSocket would emit as its own "error" event must never come.
    send({ type: "nonsense" });
    await s.next((m) => m.error !== undefined, "the refusal");
    expect(s.messages.filter((m) => m.type === "error")).toEqual([]);
    expect(s.messages.find((m) => m.error)!.type).toBeUndefined();
    send({ type: "kill" });
    await s.next((m) => m.type === "status" && m.data.running === false, "killed");
    s.ws.close();
  }, 30_000);
}
