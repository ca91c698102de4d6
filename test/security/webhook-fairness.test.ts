// One user's webhooks cannot starve the panel's: a user whose only right is manageWebhooks on one
// server points endpoints at a receiver that answers 200 just before the attempt's timeout, then
// floods them with test sends and with the server's events. Test sends past one per endpoint every
// few seconds are refused (ErrTooManyRequests) and change nothing; each endpoint keeps at most
// PENDING_PER_ENDPOINT deliveries waiting, the oldest past it dropped with a note its owner reads;
// and the worker shares its slots between endpoints, so an administrator's panel-wide alert and
// another user's server endpoint are delivered at once, not behind the flood.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { refusals } from "../helpers/refusal";
import { SCOPES } from "../../core/scopes";
import { recordEvent } from "../../server/services/activity/record";
import { SYSTEM } from "../../server/services/activity/actor";
import { WebhookWorker, SLOTS } from "../../server/services/webhooks/worker";
import { DROPPED_NOTE, PENDING_PER_ENDPOINT } from "../../server/services/webhooks/queue";
import { MAX_PER_SERVER, TEST_EVERY_MS } from "../../server/services/webhooks/store";

/** How long the attacker's receiver holds each delivery before its 200 (the attack used 9.5 s of the 10 s allowed). */
const SLOW_MS = 3000;
/** More endpoints than the worker once had slots for (4): each holds one while it answers slowly. */
const ATTACKER_ENDPOINTS = 4;
/** Events on the attacker's server: each goes to every one of their endpoints, well past the cap. */
const EVENTS = PENDING_PER_ENDPOINT + 50;

let panel: TestPanel;
let worker: WebhookWorker;
let fast: Receiver;
let admin: { token: string };
let attacker: { token: string; userId: number };
let neighbour: { token: string; userId: number };
const hooks: number[] = [];
let adminHook: number;
let neighbourHook: number;

/** The attacker's receiver: 200 after SLOW_MS, counting what each endpoint (its path) has in flight at once. */
const inFlight = new Map<string, number>();
const mostAtOnce = new Map<string, number>();
let attackerAtOnce = 0;
let mostAttackerAtOnce = 0;
const slow = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    const path = new URL(request.url).pathname;
    await request.text();
    inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
    mostAtOnce.set(path, Math.max(mostAtOnce.get(path) ?? 0, inFlight.get(path)!));
    mostAttackerAtOnce = Math.max(mostAttackerAtOnce, ++attackerAtOnce);
    try {
      await Bun.sleep(SLOW_MS);
      return new Response("ok");
    } finally {
      inFlight.set(path, inFlight.get(path)! - 1);
      attackerAtOnce--;
    }
  },
});

const call = (method: string, path: string, token: string, body?: unknown) => panel.request(path, { method, token, headers: { "content-type": "application/json", origin: "http://localhost" }, body: body === undefined ? undefined : JSON.stringify(body) });

async function made(res: Response): Promise<number> {
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

async function addServer(id: string, nodeId: number, userId: number): Promise<void> {
  await panel.db.insert(schema.servers).values({ id, name: id, nodeId, createdAt: new Date() }).run();
  await panel.db.insert(schema.serverUsers).values({ serverId: id, userId, flags: ["manageWebhooks"] }).run();
}

/**
 * An endpoint of `owner`'s server. In the attack its receiver is on a public address the user may
 * give; here it is on loopback, which an administrator allows on that endpoint (the destination
 * rules are attacked in activity-webhooks.test.ts, not here). The endpoint stays the user's.
 */
async function serverHook(token: string, serverId: string, url: string, events: string[]): Promise<number> {
  const id = await made(await call("POST", "/api/webhooks", token, { url: "https://example.com/hook", events, serverId }));
  expect((await call("PUT", `/api/webhooks/${id}`, admin.token, { url, allowInternal: true })).status).toBe(200);
  return id;
}

const rowsOf = async (webhookId: number) => await panel.db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.webhookId, webhookId)).all();

async function arrival(receiver: Receiver, event: string, since: number, withinMs: number): Promise<number | null> {
  const deadline = since + withinMs;
  while (Date.now() < deadline) {
    const got = receiver.received.find((r) => r.at >= since && r.headers["kiln-event"] === event);
    if (got) return got.at - since;
    await Bun.sleep(20);
  }
  return null;
}

beforeAll(async () => {
  panel = await testPanel();
  fast = startReceiver();
  admin = await loginAs(panel.db, [SCOPES.admin]);
  attacker = await loginAs(panel.db, []);
  neighbour = await loginAs(panel.db, []);
  const node = await panel.db.insert(schema.nodes).values({ name: "n", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2, secret: "x".repeat(32), createdAt: new Date() }).returning().get();
  await addServer("attackers", node.id, attacker.userId);
  await addServer("neighbours", node.id, neighbour.userId);
  adminHook = await made(await call("POST", "/api/webhooks", admin.token, { url: fast.url, events: ["settings.changed"], allowInternal: true }));
  neighbourHook = await serverHook(neighbour.token, "neighbours", fast.url, ["server.started"]);
  for (let i = 0; i < ATTACKER_ENDPOINTS; i++) hooks.push(await serverHook(attacker.token, "attackers", `http://127.0.0.1:${slow.port}/slow/${i}`, ["server.*"]));
  worker = new WebhookWorker(panel.db, { panelPort: 1 }, { delaysMs: [60_000], giveUpAfterMs: 3_600_000 });
  worker.start();
});

afterAll(() => {
  worker.stop();
  slow.stop(true);
  fast.stop();
});

describe("a manageWebhooks holder flooding slow endpoints", () => {
  test("test sends past one per endpoint every few seconds are refused with ErrTooManyRequests and change nothing", async () => {
    const started = Date.now();
    for (const [n, id] of hooks.entries()) {
      expect((await call("POST", `/api/webhooks/${id}/test`, attacker.token)).status).toBe(202);
      if (n === 0) {
        // The page's button is refused the same way (one rule, in the service), with the catalogue's
        // message; asked at once, so a loaded machine's slow loop below cannot outlast the window first.
        const { refusedForm } = refusals(async () => (await rowsOf(id)).length);
        await refusedForm(() => panel.request(`/webhooks/${id}/test`, { method: "POST", token: attacker.token, headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", origin: "http://localhost" }, body: "" }), 429, "Too many attempts");
      }
      const { refused } = refusals(async () => (await rowsOf(id)).length);
      for (let i = 0; i < 20; i++) await refused(() => call("POST", `/api/webhooks/${id}/test`, attacker.token), { status: 429, code: "ErrTooManyRequests" });
      expect((await rowsOf(id)).filter((row) => row.event === "webhook.test")).toHaveLength(1);
    }
    // A rate, not a ban: once the time has passed, a test is sent again.
    await Bun.sleep(Math.max(0, started + TEST_EVERY_MS + 100 - Date.now()));
    expect((await call("POST", `/api/webhooks/${hooks[0]}/test`, attacker.token)).status).toBe(202);
  }, 30_000);

  test(`each endpoint keeps at most ${PENDING_PER_ENDPOINT} deliveries waiting; the oldest past it are dropped, and its owner sees why`, async () => {
    // Events of the attacker's server (anyone on it, or the attacker's own actions, make them).
    for (let i = 0; i < EVENTS; i++) await recordEvent(panel.db, "server.started", { serverId: "attackers", actor: SYSTEM });
    for (const id of hooks) {
      const rows = await rowsOf(id);
      const pending = rows.filter((row) => row.state === "pending");
      const dropped = rows.filter((row) => row.state === "failed" && row.lastResponse === DROPPED_NOTE);
      expect(pending.length).toBeLessThanOrEqual(PENDING_PER_ENDPOINT);
      expect(rows.length).toBeGreaterThan(PENDING_PER_ENDPOINT);
      // Nothing vanished: every delivery past the cap is in the log as dropped (or was sent).
      const delivered = rows.filter((row) => row.state === "delivered").length;
      expect(pending.length + dropped.length + delivered).toBe(rows.length);
      // All but what waits and what was sent meanwhile (a slow machine sends one every SLOW_MS per endpoint).
      expect(dropped.length).toBeGreaterThanOrEqual(rows.length - PENDING_PER_ENDPOINT - delivered);
      expect(dropped.length).toBeGreaterThan(0);
      // The oldest went, not the newest: the last event waits to be sent.
      expect(pending.map((row) => row.id)).toContain(Math.max(...rows.map((row) => row.id)));
      const log = (await (await call("GET", `/api/webhooks/${id}/deliveries?limit=100&page=2`, attacker.token)).json()) as { deliveries: { state: string; response: string | null }[] };
      expect(log.deliveries.some((d) => d.state === "failed" && d.response === DROPPED_NOTE)).toBe(true);
    }
    const waiting = await panel.db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.state, "pending")).all();
    expect(waiting.length).toBeLessThanOrEqual(ATTACKER_ENDPOINTS * PENDING_PER_ENDPOINT);
  }, 30_000);

  test("an administrator's panel-wide alert and another user's server endpoint arrive at once, sooner than the slow receiver answers", async () => {
    expect((await panel.db.select().from(schema.webhookDeliveries).where(and(eq(schema.webhookDeliveries.state, "pending"))).all()).length).toBeGreaterThan(ATTACKER_ENDPOINTS * 10);
    const alertAt = Date.now();
    expect((await call("POST", "/api/settings", admin.token, { "panel.settings.companyName": "Alert Co" })).status).toBeLessThan(300);
    const alert = await arrival(fast, "settings.changed", alertAt, 8000);
    const eventAt = Date.now();
    await recordEvent(panel.db, "server.started", { serverId: "neighbours", actor: SYSTEM });
    const neighbours = await arrival(fast, "server.started", eventAt, 8000);
    expect({ alert: alert !== null && alert < SLOW_MS, neighbours: neighbours !== null && neighbours < SLOW_MS }).toEqual({ alert: true, neighbours: true });
    // And the log says so once the answer is recorded.
    const settled = async () => (await Promise.all([adminHook, neighbourHook].map(rowsOf))).every((rows) => rows.length === 1 && rows[0]!.state === "delivered");
    for (const deadline = Date.now() + 5000; !(await settled()) && Date.now() < deadline;) await Bun.sleep(20);
    expect(await settled()).toBe(true);
    // The slow endpoints: one delivery in flight each, and the attacker's together never more than their share.
    for (const [path, most] of mostAtOnce) expect({ path, most }).toEqual({ path, most: 1 });
    expect(mostAttackerAtOnce).toBeLessThanOrEqual(SLOTS.perOwner);
    expect(mostAttackerAtOnce).toBeGreaterThan(0);
  }, 30_000);
});

describe("accounts that each hold manageWebhooks on one server", () => {
  // Each event of a server is queued for all its endpoints in the event's own transaction: the
  // cap per owner let a crowd of accounts give one server as many endpoints as they liked.
  test(`make at most ${MAX_PER_SERVER} endpoints for it between them (ErrFieldTooLarge), and nothing more is stored`, async () => {
    const first = await loginAs(panel.db, []);
    const second = await loginAs(panel.db, []);
    const node = (await panel.db.select().from(schema.nodes).get())!;
    await addServer("crowded", node.id, first.userId);
    await panel.db.insert(schema.serverUsers).values({ serverId: "crowded", userId: second.userId, flags: ["manageWebhooks"] }).run();
    const make = (token: string, i: number) => call("POST", "/api/webhooks", token, { url: `https://example.com/crowd/${i}`, events: ["server.file.write"], serverId: "crowded" });
    for (let i = 0; i < MAX_PER_SERVER; i++) await made(await make(i % 2 === 0 ? first.token : second.token, i));
    const { refused } = refusals(async () => (await panel.db.select().from(schema.webhooks).where(eq(schema.webhooks.serverId, "crowded")).all()).length);
    await refused(() => make(second.token, MAX_PER_SERVER), { status: 400, code: "ErrFieldTooLarge" });
  }, 60_000);
});
