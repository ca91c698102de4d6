// Webhooks through the panel's API and its delivery worker, against a local receiver: signed JSON,
// Discord's shape, retries after failures, a test send, the delivery log, turning an endpoint off
// after repeated failure, and the events a real node reports (a crash) reaching the receiver.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../db";
import { panelForAll, jsonInit, type PanelWithNode } from "./helpers/panel-node";
import { echoTemplate, eventually } from "./helpers/node";
import { putTemplate } from "../server/services/templates";
import { PanelReporter } from "../daemon/events/reporter";
import { nodeCredentials } from "../daemon/config";
import { startReceiver, signatureValid, type Receiver } from "./helpers/webhook-receiver";
import { WebhookWorker, DISABLE_AFTER } from "../server/services/webhooks/worker";
import { recordEvent } from "../server/services/activity/record";
import { SYSTEM } from "../server/services/activity/actor";

let ctx: PanelWithNode;
let receiver: Receiver;
let worker: WebhookWorker;
panelForAll((made) => (ctx = made));
beforeAll(() => {
  receiver = startReceiver();
  // Quick retries: the schedule is configuration (config webhooks.retryDelays); the rule under test is the same.
  worker = new WebhookWorker(ctx.panel.db, { panelPort: 1 }, { delaysMs: [100, 200], giveUpAfterMs: 60_000 });
  worker.start();
});
afterAll(() => {
  worker.stop();
  receiver.stop();
});

const api = (method: string, path: string, body?: unknown, token = ctx.admin.token) => ctx.panel.request(path, { token, ...jsonInit(method, body), headers: { "content-type": "application/json", origin: "http://localhost" } });
const SECRET = "a-secret-of-enough-length";

async function hook(body: Record<string, unknown>) {
  const res = await api("POST", "/api/webhooks", { url: receiver.url, secret: SECRET, allowInternal: true, ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: number };
}

describe("deliveries", () => {
  test("an event a webhook wants arrives signed, with the documented headers and body", async () => {
    const id = await ctx.createServer("hooked");
    const { id: hookId } = await hook({ events: ["server.renamed"], serverId: id });
    const before = receiver.received.length;
    expect((await api("PUT", `/api/servers/${id}/name/renamed-one`)).status).toBeLessThan(300);
    await eventually(() => receiver.received.length > before, 5000, "the delivery");
    const delivery = receiver.received.at(-1)!;
    expect(delivery.headers["kiln-event"]).toBe("server.renamed");
    expect(delivery.headers["kiln-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(signatureValid(SECRET, delivery)).toBe(true);
    expect(signatureValid("another secret entirely", delivery)).toBe(false);
    const body = JSON.parse(delivery.body);
    expect(body).toMatchObject({ event: "server.renamed", serverId: id, actor: { type: "user", id: String(ctx.admin.userId) }, properties: { old: "hooked", new: "renamed-one" } });
    expect(typeof body.id).toBe("number");
    expect(new Date(body.at).toISOString()).toBe(body.at);
    await eventually(async () => ((await (await api("GET", `/api/webhooks/${hookId}/deliveries`)).json()) as { deliveries: { state: string }[] }).deliveries[0]?.state === "delivered", 5000, "the log to say delivered");
    const log = (await (await api("GET", `/api/webhooks/${hookId}/deliveries`)).json()) as { deliveries: { status: number; attempts: number; response: string }[] };
    expect(log.deliveries[0]).toMatchObject({ status: 200, attempts: 1, response: "thanks" });
  });

  test("a receiver answering 500 twice gets it a third time, the same delivery, and nothing after", async () => {
    const { id: hookId } = await hook({ events: ["settings.changed"] });
    receiver.failWith(500, 500);
    const before = receiver.received.length;
    expect((await api("POST", "/api/settings", { "panel.settings.companyName": "Retry Co" })).status).toBe(204);
    await eventually(() => receiver.received.length >= before + 3, 5000, "three attempts");
    await Bun.sleep(500);
    const attempts = receiver.received.slice(before);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.headers["kiln-delivery"])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    const log = (await (await api("GET", `/api/webhooks/${hookId}/deliveries`)).json()) as { deliveries: { state: string; attempts: number }[] };
    expect(log.deliveries[0]).toMatchObject({ state: "delivered", attempts: 3 });
  });

  test("Discord's address gets Discord's shape, with mentions and markdown made harmless", async () => {
    const discord = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (r) => new Response(JSON.stringify({ got: await r.text() })) });
    try {
      const res = await api("POST", "/api/webhooks", { url: `http://127.0.0.1:${discord.port}/api/webhooks/1/abc`, events: ["server.console.*"], format: "discord", allowInternal: true });
      const { id } = (await res.json()) as { id: number };
      const server = await ctx.createServer("chatty");
      await recordEvent(ctx.panel.db, "server.console.command", { serverId: server, actor: SYSTEM, properties: { command: "say @everyone **bold** <@123>" } });
      await eventually(async () => ((await (await api("GET", `/api/webhooks/${id}/deliveries`)).json()) as { deliveries: { state: string }[] }).deliveries[0]?.state === "delivered", 5000, "the delivery");
      const sent = JSON.parse(JSON.parse(((await (await api("GET", `/api/webhooks/${id}/deliveries`)).json()) as { deliveries: { response: string }[] }).deliveries[0]!.response).got);
      expect(sent.allowed_mentions).toEqual({ parse: [] });
      expect(sent.content).toContain("server.console.command");
      expect(sent.content).toContain("chatty");
      expect(sent.content).toContain("\\@everyone \\*\\*bold\\*\\*");
      expect(sent.content).not.toContain("<@123>");
    } finally {
      discord.stop(true);
    }
  });

  test("send test queues one delivery to that endpoint only, whatever events it wants", async () => {
    const { id } = await hook({ events: ["backup.failed"] });
    const before = receiver.received.length;
    const res = await api("POST", `/api/webhooks/${id}/test`);
    expect(res.status).toBe(202);
    const { deliveryId } = (await res.json()) as { deliveryId: string };
    await eventually(() => receiver.received.some((r) => r.headers["kiln-delivery"] === deliveryId), 5000, "the test delivery");
    expect(receiver.received.slice(before).filter((r) => r.headers["kiln-event"] === "webhook.test")).toHaveLength(1);
  });

  test(`an endpoint failing ${DISABLE_AFTER} attempts in a row is turned off, with the reason shown to its owner`, async () => {
    const dead = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("down", { status: 503 }) });
    try {
      const res = await api("POST", "/api/webhooks", { url: `http://127.0.0.1:${dead.port}/`, events: ["node.changed"], allowInternal: true });
      const { id } = (await res.json()) as { id: number };
      for (let i = 0; i < DISABLE_AFTER; i++) await recordEvent(ctx.panel.db, "node.changed", { actor: SYSTEM, properties: { name: `n${i}` } });
      worker.wake();
      await eventually(async () => ((await (await api("GET", `/api/webhooks/${id}`)).json()) as { enabled: boolean }).enabled === false, 20_000, "the endpoint to be turned off");
      const view = (await (await api("GET", `/api/webhooks/${id}`)).json()) as { disabledReason: string };
      expect(view.disabledReason).toContain("503");
      const page = await ctx.page("/webhooks", ctx.admin.token);
      expect(page.html).toContain('data-testid="webhook-disabled-reason"');
      expect(await ctx.panel.db.select().from(schema.activity).where(eq(schema.activity.event, "webhook.disabled")).all()).toHaveLength(1);
      expect((await api("POST", `/api/webhooks/${id}/test`)).status).toBe(409);
    } finally {
      dead.stop(true);
    }
  }, 30_000);
});

describe("what a node reports reaches webhooks", () => {
  test("a server that crashes: server.crashed with its cause, within 2 s of the crash", async () => {
    await putTemplate(ctx.panel.db, "crashy", { ...echoTemplate({ command: "sh -c 'read l; echo \"going down\"; exit 3'" }), name: "crashy" });
    const id = await ctx.createServer("crasher", { template: "crashy" });
    await hook({ events: ["server.crashed"], serverId: id });
    await eventually(async () => !((await (await ctx.node.call("GET", `/daemon/server/${id}/status`)).json()) as { installing: boolean }).installing, 10_000, "the install to end");
    // The node's report goes to the panel as a real node's does: POST /api/nodes/events with a node token.
    const served = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => ctx.panel.app.fetch(r) });
    const reporter = new PanelReporter(`http://127.0.0.1:${served.port}`, nodeCredentials(ctx.node.config), () => undefined);
    try {
      let forwarded = ctx.node.events.length;
      const forward = setInterval(() => {
        for (const event of ctx.node.events.slice(forwarded)) reporter.report(event);
        forwarded = ctx.node.events.length;
      }, 20);
      expect((await ctx.node.call("POST", `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
      const before = receiver.received.length;
      const crashedAt = Date.now();
      await ctx.node.call("POST", `/daemon/server/${id}/console`, "crash");
      await eventually(() => receiver.received.slice(before).some((r) => r.headers["kiln-event"] === "server.crashed"), 5000, "the crash delivery");
      clearInterval(forward);
      const delivery = receiver.received.slice(before).find((r) => r.headers["kiln-event"] === "server.crashed")!;
      expect(delivery.at - crashedAt).toBeLessThan(2000);
      expect(JSON.parse(delivery.body)).toMatchObject({ event: "server.crashed", serverId: id, actor: { type: "node" }, properties: { phase: "run" } });
    } finally {
      reporter.stop();
      served.stop(true);
    }
  });

  test("a task's webhook step sends its text to the endpoint its author manages, and only there", async () => {
    const id = await ctx.createServer("announcer");
    const { id: hookId } = await hook({ events: ["backup.failed"], serverId: id });
    const served = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => ctx.panel.app.fetch(r) });
    const reporter = new PanelReporter(`http://127.0.0.1:${served.port}`, nodeCredentials(ctx.node.config), () => undefined);
    let forwarded = ctx.node.events.length;
    const forward = setInterval(() => {
      for (const event of ctx.node.events.slice(forwarded)) reporter.report(event);
      forwarded = ctx.node.events.length;
    }, 20);
    try {
      const made = await api("POST", `/proxy/daemon/server/${id}/tasks`, { name: "announce", cronSchedule: null, operations: [{ type: "webhook", webhook: hookId, text: "the server restarts in 5 minutes" }] });
      expect(made.status, await made.clone().text()).toBe(201);
      const { id: taskId } = (await made.json()) as { id: string };
      const before = receiver.received.length;
      expect((await api("POST", `/proxy/daemon/server/${id}/tasks/${taskId}/run`)).status).toBe(202);
      await eventually(() => receiver.received.slice(before).some((r) => r.headers["kiln-event"] === "task.webhook"), 5000, "the step's delivery");
      const body = JSON.parse(receiver.received.slice(before).find((r) => r.headers["kiln-event"] === "task.webhook")!.body);
      expect(body).toMatchObject({ event: "task.webhook", serverId: id, actor: { type: "task", id: taskId, name: "announce" }, properties: { task: "announce", text: "the server restarts in 5 minutes" } });
      // A user without manageWebhooks cannot put the step in a task.
      const plain = await ctx.userWith(id, { editServerData: true });
      const refused = await api("POST", `/proxy/daemon/server/${id}/tasks`, { name: "sneaky", cronSchedule: null, operations: [{ type: "webhook", webhook: hookId, text: "hi" }] }, plain.token);
      expect(refused.status).toBe(403);
    } finally {
      clearInterval(forward);
      reporter.stop();
      served.stop(true);
    }
  });
});
