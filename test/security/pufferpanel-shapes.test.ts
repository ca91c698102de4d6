// Attack: the shapes Kiln reads for PufferPanel's clients used to slip past the rules.
// A socket message with its fields beside `type` and others in `data` from a user lacking the
// flag; PufferPanel's creation body from a non-administrator carrying an image, bindings or a
// fixed variable; PufferPanel's flat permission flags raising scopes or smuggling unknown ones;
// "/"-rooted paths climbing out with "/../". Each is refused with a catalogue error and changes
// nothing.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SCOPES } from "../../core/scopes";
import { schema } from "../../db";
import { scopesOf } from "../../server/services/users";
import { loginAs } from "../helpers/app";
import { eventually, type SocketMessage, type TestNode } from "../helpers/node";
import { jsonInit, servedPanelForAll, type PanelWithNode, type ServedPanel } from "../helpers/panel-node";

let node: TestNode;
let ctx: PanelWithNode;
let server: ServedPanel["server"];
let id = "";

servedPanelForAll("shapes", (rig) => ({ node, ctx, server, id } = rig));
beforeAll(() => node.call("POST", `/daemon/server/${id}/install?wait=true`));

const folder = () => node.folder(id);

async function refused(response: Response, code: string): Promise<void> {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  expect((await response.json()).error.code).toBe(code);
}

async function socketAs(token: string) {
  const base = `127.0.0.1:${server.port}`;
  const ws = new WebSocket(`ws://${base}/proxy/daemon/socket/${id}`, { headers: { authorization: `Bearer ${token}` } } as unknown as string[]);
  const messages: SocketMessage[] = [];
  ws.onmessage = (event) => messages.push(JSON.parse(String(event.data)));
  await new Promise<void>((resolve, reject) => ((ws.onopen = () => resolve()), (ws.onerror = () => reject(new Error("socket refused")))));
  return { ws, messages, send: (message: unknown) => ws.send(JSON.stringify(message)) };
}

describe("socket messages with their fields beside the type", () => {
  test("a viewer's flat command is refused; a delete beside a get in data is judged as the delete and refused", async () => {
    const viewer = await ctx.userWith(id, { viewServerConsole: true, viewServerFiles: true });
    const s = await socketAs(viewer.token);
    s.send({ type: "console", command: "flat-forbidden" });
    // The permission check and the node must read the same action: the one beside the type.
    s.send({ type: "file", action: "delete", path: "motd.txt", data: { action: "get", path: "" } });
    s.send({ type: "file", action: "create", path: "/made-by-viewer" });
    await eventually(() => s.messages.filter((m) => m.error?.code === "ErrNoPermission").length === 3, 5000, "three refusals");
    expect(s.messages.filter((m) => m.error).map((m) => m.error.metadata.permission).sort()).toEqual(["putServerFiles", "putServerFiles", "sendServerConsole"]);
    // A get beside a delete in data is a get: allowed, and nothing is deleted.
    s.send({ type: "file", action: "get", path: "", data: { action: "delete", path: "motd.txt" } });
    await eventually(() => s.messages.some((m) => m.type === "file"), 5000, "the listing");
    expect(existsSync(join(folder(), "motd.txt"))).toBe(true);
    expect(existsSync(join(folder(), "made-by-viewer"))).toBe(false);
    // Refusals carry no type (a PufferPanel client would raise a typed "error" as a broken socket).
    expect(s.messages.some((m) => m.type === "error")).toBe(false);
    s.ws.close();
  });

  test("a type the rules do not know is refused, whatever fields come along", async () => {
    const everything = await ctx.userWith(id, { viewServerConsole: true, sendServerConsole: true, putServerFiles: true, viewServerFiles: true, startServer: true, stopServer: true, installServer: true });
    const s = await socketAs(everything.token);
    s.send({ type: "reload" });
    s.send({ type: "__proto__", command: "x" });
    s.send({ data: { type: "console", command: "no-type-beside" } });
    await eventually(() => s.messages.filter((m) => m.error?.code === "ErrInvalidJson").length === 3, 5000, "three refusals");
    s.ws.close();
  });

  test("a '/'-rooted path climbing with '/../' is refused over the socket", async () => {
    const editor = await ctx.userWith(id, { viewServerFiles: true, putServerFiles: true });
    const s = await socketAs(editor.token);
    s.send({ type: "file", action: "create", path: "/../escaped-by-socket" });
    s.send({ type: "file", action: "get", path: "/../" });
    await eventually(() => s.messages.filter((m) => m.error?.code === "ErrPathOutside").length === 2, 5000, "two refusals");
    expect(existsSync(node.folder("escaped-by-socket"))).toBe(false);
    s.ws.close();
  });
});

describe("PufferPanel's creation body from a non-administrator", () => {
  const body = (more: Record<string, unknown>) => ({
    name: `pp-${Math.random().toString(36).slice(2, 8)}`,
    node: ctx.nodeId,
    users: [],
    display: "Echo test",
    type: "other",
    run: { command: "sh -c 'touch /tmp/pwned-by-run'" },
    install: [{ type: "command", commands: ["touch /tmp/pwned-by-install"] }],
    data: { greeting: { value: "mine", userEdit: true }, port: { value: 25565, userEdit: true } },
    environment: { type: "standard" },
    ...more,
  });
  const rows = async () => (await ctx.panel.db.select().from(schema.servers).all()).length;

  test("an image, bindings or a fixed variable are refused, and nothing is created", async () => {
    const creator = await loginAs(ctx.panel.db, [SCOPES.serversCreate]);
    const before = await rows();
    const create = (more: Record<string, unknown>) => ctx.panel.request("/api/servers", { token: creator.token, ...jsonInit("POST", body(more)) });
    await refused(await create({ environment: { type: "docker", image: "attacker/rootkit" } }), "ErrNoPermission");
    await refused(await create({ environment: { type: "docker", image: "kiln/generic", bindings: { "/": "/host" } } }), "ErrNoPermission");
    await refused(await create({ data: { port: { value: 22, userEdit: true } } }), "ErrNoPermission");
    await refused(await create({ users: ["nobody-by-that-name"] }), "ErrUserNotFound");
    // A list of names without end is refused before any is looked up.
    await refused(await create({ users: Array.from({ length: 100_000 }, (_, i) => `name${i}`) }), "ErrFieldTooLarge");
    expect(await rows()).toBe(before);
  });

  test("the run and install sent along are not what runs: the stored template's are", async () => {
    const creator = await loginAs(ctx.panel.db, [SCOPES.serversCreate]);
    const created = await ctx.panel.request("/api/servers", { token: creator.token, ...jsonInit("POST", body({})) });
    expect(created.status).toBe(201);
    const definition = await node.json("GET", `/daemon/server/${(await created.json()).id}`);
    expect(JSON.stringify(definition)).not.toContain("pwned");
    expect(definition.data.greeting.value).toBe("mine");
    expect(definition.data.port.value).toBe(25565);
  });
});

describe("PufferPanel's flat permission flags", () => {
  test("raising scopes the caller lacks (by a flag, or by the scopes list beside the flags), unknown flags and bad values are refused; nothing changes", async () => {
    const editor = await loginAs(ctx.panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
    const target = await loginAs(ctx.panel.db, [SCOPES.serversView]);
    const put = (token: string, userId: number, flags: Record<string, unknown>) => ctx.panel.request(`/api/users/${userId}/perms`, { token, ...jsonInit("PUT", flags) });
    await refused(await put(editor.token, target.userId, { viewServers: true, admin: true }), "ErrUserHasMorePermissions");
    await refused(await put(editor.token, editor.userId, { viewUsers: true, editUsers: true, admin: true }), "ErrMissingScope");
    await refused(await put(editor.token, editor.userId, { viewUsers: true, editUsers: true, superUser: true }), "ErrUnknownField");
    await refused(await put(editor.token, editor.userId, { viewUsers: true, editUsers: true, editTemplates: "yes" }), "ErrFieldNotBoolean");
    await refused(await put(editor.token, editor.userId, { scopes: [SCOPES.usersView, SCOPES.usersEdit], admin: true }), "ErrMissingScope");
    // The list beside the flags: a scope no flag sent decides follows it, under the same rule.
    await refused(await put(editor.token, editor.userId, { scopes: [SCOPES.usersView, SCOPES.usersEdit, SCOPES.admin], viewUsers: true, editUsers: true }), "ErrMissingScope");
    const lower = await loginAs(ctx.panel.db, []);
    await refused(await put(editor.token, lower.userId, { id: lower.userId, username: "x", status: "active", otpEnabled: false, scopes: [SCOPES.settingsEdit], viewServers: false }), "ErrMissingScope");
    expect(await scopesOf(ctx.panel.db, lower.userId)).toEqual([]);
    // "__proto__" as a key of the JSON text (an object literal would make it the prototype instead).
    const proto = await ctx.panel.request(`/api/users/${editor.userId}/perms`, { token: editor.token, method: "PUT", headers: { "content-type": "application/json" }, body: '{"__proto__":{"admin":true},"viewUsers":true,"editUsers":true}' });
    expect(proto.status).toBe(400);
    expect(await scopesOf(ctx.panel.db, editor.userId)).toEqual([SCOPES.usersEdit, SCOPES.usersView].sort());
    expect(await scopesOf(ctx.panel.db, target.userId)).toEqual([SCOPES.serversView]);
  });
});

describe("'/'-rooted paths over HTTP", () => {
  test("archive sources and extract destinations climbing with '/../' are refused; nothing is written outside", async () => {
    const editor = await ctx.userWith(id, { viewServerFiles: true, putServerFiles: true });
    const outside = join(node.config.dataDir, "servers");
    writeFileSync(join(outside, "outside-secret.txt"), "secret");
    // As the panel's own page sends them (extract is a GET that changes state: middleware/same-origin).
    const call = (method: string, path: string, body?: unknown) => ctx.panel.request(`/proxy/daemon/server/${id}${path}`, { token: editor.token, ...jsonInit(method, body), headers: { ...jsonInit(method, body).headers, "sec-fetch-site": "same-origin" } });
    await refused(await call("POST", "/archive/stolen.zip", ["/../outside-secret.txt"]), "ErrPathOutside");
    await refused(await call("POST", "/archive/stolen.zip", ["/motd.txt", "//../../"]), "ErrPathOutside");
    expect(existsSync(join(folder(), "stolen.zip"))).toBe(false);
    expect((await call("POST", "/archive/ok.zip", ["/motd.txt"])).status).toBe(200);
    await refused(await call("GET", `/extract/ok.zip?destination=${encodeURIComponent("/../")}`), "ErrPathOutside");
    await refused(await call("GET", `/extract/ok.zip?destination=${encodeURIComponent("//../escaped")}`), "ErrPathOutside");
    expect(existsSync(join(outside, "motd.txt"))).toBe(false);
    expect(existsSync(join(outside, "escaped"))).toBe(false);
  });
});
