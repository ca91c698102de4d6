// Attacks on the activity log and webhooks by whoever holds the least right that reaches them:
// reading another server's log, webhooks aimed inside the panel's network or at a node's API,
// rights a user does not hold, a node speaking of servers it does not hold, and a file name made
// to run as a formula in an administrator's spreadsheet. Each is refused with a catalogue error
// and changes nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_WEBHOOK_TEXT } from "../../core/tasks/constants";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { panelForAll, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { refusals, errorOf } from "../helpers/refusal";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { recordEvent } from "../../server/services/activity/record";
import { SYSTEM } from "../../server/services/activity/actor";
import { panelAuthorization } from "../../daemon/http/node-auth";
import { WebhookWorker } from "../../server/services/webhooks/worker";

let ctx: PanelWithNode;
let serverA: string;
let serverB: string;
let receiver: Receiver;
panelForAll((made) => (ctx = made));
beforeAll(async () => {
  serverA = await ctx.createServer("alpha");
  serverB = await ctx.createServer("bravo");
  receiver = startReceiver();
});
afterAll(() => receiver.stop());

const call = (method: string, path: string, token: string, body?: unknown) => ctx.panel.request(path, { token, ...jsonInit(method, body), headers: { "content-type": "application/json", origin: "http://localhost" } });
const webhookRows = async () => await ctx.panel.db.select().from(schema.webhooks).all();
const activityRows = async () => (await ctx.panel.db.select().from(schema.activity).all()).length;
const { refused } = refusals(webhookRows);

describe("reading the log", () => {
  test("a user with viewActivity on one server cannot read another's log, by either address", async () => {
    const reader = await ctx.userWith(serverA, { viewActivity: true });
    await recordEvent(ctx.panel.db, "server.file.write", { serverId: serverB, actor: SYSTEM, properties: { path: "secret-plans.txt" } });
    expect(await errorOf(await call("GET", `/api/servers/${serverB}/activity`, reader.token))).toEqual({ status: 403, code: "ErrNoPermission" });
    expect(await errorOf(await call("GET", `/api/activity?server=${serverB}`, reader.token))).toEqual({ status: 403, code: "ErrNoPermission" });
    const own = (await (await call("GET", "/api/activity?limit=100", reader.token)).json()) as { events: { serverId?: string }[] };
    expect(own.events.some((e) => e.serverId === serverB)).toBe(false);
    const page = await ctx.page(`/server/${serverB}?tab=activity`, reader.token);
    expect(page.html).not.toContain("secret-plans.txt");
  });

  test("a co-user of a server reads its log but not the other users' addresses", async () => {
    const reader = await ctx.userWith(serverA, { viewActivity: true });
    await recordEvent(ctx.panel.db, "server.console.command", { serverId: serverA, actor: { type: "user", id: String(ctx.admin.userId), name: "admin" }, ip: "203.0.113.9", properties: { command: "op me" } });
    const listed = (await (await call("GET", `/api/servers/${serverA}/activity?event=server.console.command`, reader.token)).json()) as { events: { ip?: string; properties: { command: string } }[] };
    expect(listed.events[0]!.properties.command).toBe("op me");
    expect(listed.events[0]!.ip).toBeUndefined();
  });

  test("without viewActivity the tab is not there and its address is refused", async () => {
    const other = await ctx.userWith(serverA, { viewServerConsole: true });
    expect((await ctx.page(`/server/${serverA}`, other.token)).html).not.toContain("?tab=activity");
    expect(await errorOf(await call("GET", `/api/servers/${serverA}/activity`, other.token))).toEqual({ status: 403, code: "ErrNoPermission" });
    expect((await ctx.page("/activity", other.token)).status).toBe(403);
  });

  test("a malformed filter is a field error, not a database error", async () => {
    for (const query of ["event=%25", "event=server.%25", "user=1e3", "since=yesterday", "page=0", "server=../x"]) {
      const res = await call("GET", `/api/activity?${query}`, ctx.admin.token);
      expect(res.status, query).toBeGreaterThanOrEqual(400);
      expect(res.status, query).toBeLessThan(500);
    }
  });

  test("an exported file name cannot become a spreadsheet formula", async () => {
    await recordEvent(ctx.panel.db, "server.file.write", { serverId: serverA, actor: { type: "task", id: "t1", name: '=HYPERLINK("http://evil.example","x")' }, properties: { path: "-2+3" } });
    const csv = await (await call("GET", `/api/servers/${serverA}/activity?format=csv&event=server.file.write`, ctx.admin.token)).text();
    for (const line of csv.split("\r\n").slice(1).filter(Boolean)) for (const cell of line.match(/("([^"]|"")*"|[^,]*)/g)!) expect(cell.replace(/^"/, "")).not.toMatch(/^[=+\-@]/);
    expect(csv).toContain("'=HYPERLINK");
  });
});

describe("webhook destinations", () => {
  const aimed = (url: string, extra: Record<string, unknown> = {}, token = ctx.admin.token) => () => call("POST", "/api/webhooks", token, { url, events: ["*"], ...extra });

  // 64:ff9b::/96 is NAT64's: on an IPv6-only network it reaches the IPv4 address in its last 32 bits.
  test("loopback in every spelling, link-local, private ranges and the unspecified address are refused, NAT64's spellings too", async () => {
    for (const url of ["http://127.0.0.1/", "http://127.1:8080/", "http://2130706433/", "http://0x7f.0.0.1/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://localhost/", "http://169.254.169.254/latest/meta-data", "http://10.0.0.5/", "http://192.168.1.1/", "http://172.16.0.1/", "http://[fd00::1]/", "http://0.0.0.0/", "http://[64:ff9b::a00:5]/", "http://[64:ff9b::127.0.0.1]/", "http://[64:ff9b::a9fe:a9fe]/", "http://[64:ff9b:1::c0a8:101]/"]) {
      await refused(aimed(url), { status: 400, code: "ErrAddressRefused" });
    }
  });

  test("the node's API and SFTP port are refused even where an administrator allows internal addresses", async () => {
    const node = (await ctx.panel.db.select().from(schema.nodes).get())!;
    await refused(aimed(`http://127.0.0.1:${node.privatePort}/daemon`, { allowInternal: true }), { status: 400, code: "ErrAddressRefused" });
    await refused(aimed(`http://localhost:${node.sftpPort}/`, { allowInternal: true }), { status: 400, code: "ErrAddressRefused" });
  });

  // A public address of the panel's own machine leads to its own services (a Docker API, a
  // database bound to every interface) as loopback does. Given to the machine for the test on a
  // veth pair of its own (root and ip needed: skipped without them).
  test.skipIf(process.getuid?.() !== 0 || Bun.which("ip") === null)("an address of this machine's own, public or not, is refused unless an administrator allows it", async () => {
    const address = "198.51.100.77";
    const ip = (...args: string[]) => Bun.spawnSync(["ip", ...args]).exitCode;
    expect(ip("link", "add", "kilnown0", "type", "veth", "peer", "name", "kilnown1")).toBe(0);
    try {
      expect(ip("addr", "add", `${address}/32`, "dev", "kilnown0")).toBe(0);
      // An interface's addresses count once it is up and running (its peer up too).
      expect(ip("link", "set", "kilnown1", "up") + ip("link", "set", "kilnown0", "up")).toBe(0);
      await refused(aimed(`http://${address}:2375/containers/json`), { status: 400, code: "ErrAddressRefused" });
      expect((await aimed(`http://${address}:2375/containers/json`, { allowInternal: true })()).status).toBe(201);
    } finally {
      ip("link", "delete", "kilnown0");
    }
  });

  test("not a web address, credentials in it, or another scheme: refused", async () => {
    for (const url of ["file:///etc/passwd", "gopher://example.com/", "http://user:pass@example.com/", "not a url"]) {
      await refused(aimed(url), { status: 400, code: "ErrFieldIsInvalidHost" });
    }
    await refused(aimed(`https://example.com/${"a".repeat(2100)}`), { status: 400, code: "ErrFieldTooLarge" });
  });

  test("a receiver's redirect is not followed inward", async () => {
    const inner = startReceiver();
    const redirector = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(null, { status: 302, headers: { location: inner.url } }) });
    const worker = new WebhookWorker(ctx.panel.db, { panelPort: 1 }, { delaysMs: [60_000], giveUpAfterMs: 1000 });
    worker.start();
    try {
      const res = await call("POST", "/api/webhooks", ctx.admin.token, { url: `http://127.0.0.1:${redirector.port}/`, events: ["settings.changed"], allowInternal: true });
      const { id } = (await res.json()) as { id: number };
      await call("POST", "/api/settings", ctx.admin.token, { "panel.settings.companyName": "Redirect Co" });
      const deadline = Date.now() + 5000;
      let state = "";
      while (Date.now() < deadline && state !== "failed" && state !== "pending") {
        const log = (await (await call("GET", `/api/webhooks/${id}/deliveries`, ctx.admin.token)).json()) as { deliveries: { status: number | null; state: string }[] };
        if (log.deliveries[0]?.status === 302) state = log.deliveries[0].state;
        await Bun.sleep(50);
      }
      expect(inner.received).toHaveLength(0);
      await call("DELETE", `/api/webhooks/${id}`, ctx.admin.token);
    } finally {
      worker.stop();
      redirector.stop(true);
      inner.stop();
    }
  });
});

describe("webhook rights", () => {
  test("a user without manageWebhooks cannot add one to the server, nor a panel-wide one, nor allow an internal address", async () => {
    const holder = await ctx.userWith(serverA, { manageWebhooks: true });
    const plain = await ctx.userWith(serverA, { viewActivity: true });
    await refused(() => call("POST", "/api/webhooks", plain.token, { url: "https://example.com/", events: ["server.*"], serverId: serverA }), { status: 403, code: "ErrNoPermission" });
    await refused(() => call("POST", "/api/webhooks", holder.token, { url: "https://example.com/", events: ["server.*"] }), { status: 403, code: "ErrNoPermission" });
    await refused(() => call("POST", "/api/webhooks", holder.token, { url: "https://example.com/", events: ["server.*"], serverId: serverB }), { status: 403, code: "ErrNoPermission" });
    await refused(() => call("POST", "/api/webhooks", holder.token, { url: `${receiver.url}`, events: ["server.*"], serverId: serverA, allowInternal: true }), { status: 403, code: "ErrNoPermission" });
    await refused(() => call("POST", "/api/webhooks", holder.token, { url: "https://example.com/", events: ["server.nonsense"], serverId: serverA }), { status: 400, code: "ErrFieldNotBetween" });
  });

  test("another's endpoint is as absent as one that never was; a user cannot turn on allowInternal on theirs", async () => {
    const admins = (await (await call("POST", "/api/webhooks", ctx.admin.token, { url: receiver.url, events: ["*"], allowInternal: true })).json()) as { id: number };
    const holder = await ctx.userWith(serverA, { manageWebhooks: true });
    for (const [method, path] of [["GET", `/api/webhooks/${admins.id}`], ["PUT", `/api/webhooks/${admins.id}`], ["DELETE", `/api/webhooks/${admins.id}`], ["POST", `/api/webhooks/${admins.id}/test`], ["GET", `/api/webhooks/${admins.id}/deliveries`]] as const) {
      await refused(() => call(method, path, holder.token, method === "PUT" ? { url: "https://example.com/" } : undefined), { status: 404, code: "ErrNotFound" });
    }
    const own = (await (await call("POST", "/api/webhooks", holder.token, { url: "https://example.com/hook", events: ["server.*"], serverId: serverA })).json()) as { id: number; secret: string };
    expect(own.secret.length).toBeGreaterThanOrEqual(16);
    await refused(() => call("PUT", `/api/webhooks/${own.id}`, holder.token, { allowInternal: true, url: receiver.url }), { status: 403, code: "ErrNoPermission" });
    expect(JSON.stringify(await (await call("GET", `/api/webhooks/${own.id}`, holder.token)).json())).not.toContain(own.secret);
  });

  test("an administrator's internal allowance on a server's endpoint does not follow a new address its manageWebhooks holder gives", async () => {
    const allowed = (await (await call("POST", "/api/webhooks", ctx.admin.token, { url: receiver.url, events: ["server.*"], serverId: serverA, allowInternal: true })).json()) as { id: number };
    const holder = await ctx.userWith(serverA, { manageWebhooks: true });
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:9/", "http://10.0.0.5/"]) {
      await refused(() => call("PUT", `/api/webhooks/${allowed.id}`, holder.token, { url }), { status: 400, code: "ErrAddressRefused" });
    }
    // A public address is theirs to give; the allowance is gone with the old one.
    const moved = (await (await call("PUT", `/api/webhooks/${allowed.id}`, holder.token, { url: "https://example.com/hook" })).json()) as { allowInternal: boolean };
    expect(moved.allowInternal).toBe(false);
    await call("DELETE", `/api/webhooks/${allowed.id}`, ctx.admin.token);
  });

  test("losing manageWebhooks stops the endpoint hearing the server's events", async () => {
    const holder = await ctx.userWith(serverA, { manageWebhooks: true });
    const hook = (await (await call("POST", "/api/webhooks", holder.token, { url: "https://example.com/hook", events: ["server.*"], serverId: serverA })).json()) as { id: number };
    const deliveries = async () => (await ctx.panel.db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.webhookId, hook.id)).all()).length;
    await recordEvent(ctx.panel.db, "server.started", { serverId: serverA, actor: SYSTEM });
    expect(await deliveries()).toBe(1);
    await call("PUT", `/api/servers/${serverA}/user/${encodeURIComponent((await (await call("GET", `/api/users/${holder.userId}`, ctx.admin.token)).json()).email)}`, ctx.admin.token, { viewActivity: true });
    await recordEvent(ctx.panel.db, "server.started", { serverId: serverA, actor: SYSTEM });
    expect(await deliveries()).toBe(1);
  });
});

describe("what a node may report", () => {
  const nodeCall = async (body: unknown, secret = ctx.node.config.secret) => {
    const url = "http://localhost/api/nodes/events";
    return ctx.panel.request("/api/nodes/events", { method: "POST", headers: { authorization: panelAuthorization({ secret }, "POST", url), "content-type": "application/json" }, body: JSON.stringify(body) });
  };

  test("without a node's token nothing is recorded", async () => {
    const before = await activityRows();
    expect((await nodeCall({ events: [{ serverId: serverA, event: "server.crashed", at: Date.now() }] }, "not-the-secret-at-all-0123456789")).status).toBe(401);
    expect(await activityRows()).toBe(before);
  });

  test("an event outside the node's list, or about a server it does not hold, is not recorded", async () => {
    const before = await activityRows();
    expect(await errorOf(await nodeCall({ events: [{ serverId: serverA, event: "user.login", at: Date.now() }] }))).toMatchObject({ status: 400 });
    expect((await nodeCall({ events: [{ serverId: "not-this-nodes", event: "server.crashed", at: Date.now() }] })).status).toBe(200);
    expect(await activityRows()).toBe(before);
  });

  test("a task step's text past what a step can hold is cut to it, whatever the node sends", async () => {
    const owner = await ctx.userWith(serverA, { viewServer: true });
    const text = "x".repeat(200_000);
    const res = await nodeCall({ events: [{ serverId: serverA, event: "task.webhook", at: Date.now(), actor: { type: "task", id: "t1", name: "nightly", owner: owner.userId }, properties: { webhook: 999999, text } }] });
    expect(res.status).toBe(200);
    const row = (await ctx.panel.db.select().from(schema.activity).where(eq(schema.activity.event, "task.webhook")).all()).at(-1)!;
    const stored = JSON.stringify(row);
    expect(stored).toContain("x".repeat(MAX_WEBHOOK_TEXT));
    expect(stored).not.toContain("x".repeat(MAX_WEBHOOK_TEXT + 1));
  });

  test("a user the node names who has no access to the server is not believed: the node is the actor", async () => {
    const stranger = await ctx.userWith(serverB, { viewServerConsole: true });
    expect((await nodeCall({ events: [{ serverId: serverA, event: "server.file.delete", at: Date.now(), properties: { path: "world", via: "sftp" }, actor: { type: "user", id: stranger.userId } }] })).status).toBe(200);
    const row = (await ctx.panel.db.select().from(schema.activity).where(eq(schema.activity.event, "server.file.delete")).all()).at(-1)!;
    expect(row.actorType).toBe("node");
  });
});
