// Registered webhooks, their service verbs and their one access rule: an administrator manages
// every endpoint (panel-wide ones included); anyone else only endpoints of servers where they
// hold manageWebhooks, and never allowInternal. Secrets are write-only: a list shows whether one
// is set; creation answers a generated one once. A test send is allowed once per TEST_EVERY_MS
// per endpoint.
import { desc, eq, count } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { z } from "../../../core/zod";
import { KilnError } from "../../../core/errors";
import { isEventPattern } from "../../../core/activity";
import { parseWith } from "../../../core/validation/parse";
import type { SessionUser } from "../sessions";
import { authorize, isAdminUser } from "../servers/permissions";
import { recordEvent } from "../activity/record";
import { userActor } from "../activity/actor";
import { assertDestination, webhookUrl, type PanelPorts } from "./destination";
import { formatForUrl } from "./payload";
import { WEBHOOK_FORMATS, type WebhookFormat } from "../../../core/activity";
import { queueDeliveries, wakeWorkers } from "./queue";
import { putValue, readValue } from "../cluster/one-time-values";

const MAX_PATTERNS = 50;
const MAX_PER_OWNER = 50;
/**
 * Endpoints one server has, whoever made them. Every event of the server is queued for each, in
 * the transaction that records it: with the cap per owner only, accounts that each hold
 * manageWebhooks there made it a thousand endpoints, so every file write on the server wrote a
 * thousand deliveries before it was done.
 */
export const MAX_PER_SERVER = 50;
/**
 * One test send per endpoint in this time. A test is the one delivery its manager makes at will
 * (an event needs something to happen): unlimited, a loop of them filled the queue in
 * milliseconds. A person checking a receiver never needs more than one every few seconds.
 */
export const TEST_EVERY_MS = 5_000;
const TEST_KIND = "webhook-test";

const eventsField = z.array(z.string().check(z.maxLength(100), z.refine(isEventPattern, { params: { kiln: "ErrFieldNotBetween" } }))).check(z.minLength(1), z.maxLength(MAX_PATTERNS));
const secretField = z.string().check(z.minLength(16), z.maxLength(200), z.regex(/^[\x21-\x7e]+$/));

const createSchema = z.object({
  url: z.string().check(z.maxLength(2000)),
  events: eventsField,
  secret: z.optional(secretField),
  serverId: z.optional(z.nullable(z.string().check(z.maxLength(64)))),
  format: z.optional(z.enum(WEBHOOK_FORMATS)),
  enabled: z.optional(z.boolean()),
  allowInternal: z.optional(z.boolean()),
});
const updateSchema = z.partial(z.object({ url: z.string().check(z.maxLength(2000)), events: eventsField, secret: secretField, format: z.enum(WEBHOOK_FORMATS), enabled: z.boolean(), allowInternal: z.boolean() }));

export interface WebhookView {
  id: number;
  url: string;
  events: string[];
  serverId: string | null;
  format: WebhookFormat;
  enabled: boolean;
  allowInternal: boolean;
  secretSet: true;
  failures: number;
  disabledReason: string | null;
  createdAt: string;
  ownerId: number;
}

type Row = typeof schema.webhooks.$inferSelect;

export interface DeliveryView {
  id: string;
  event: string;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  status: number | null;
  latencyMs: number | null;
  response: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
}

function view(row: Row): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    serverId: row.serverId,
    format: row.format,
    enabled: row.enabled,
    allowInternal: row.allowInternal,
    secretSet: true,
    failures: row.failures,
    disabledReason: row.disabledReason,
    createdAt: new Date(row.createdAt).toISOString(),
    ownerId: row.ownerId,
  };
}

export class Webhooks {
  constructor(
    private readonly db: Db,
    private readonly own: PanelPorts,
  ) {}

  /** The endpoints the caller manages, newest first; `serverId` narrows to one server's. */
  async list(user: SessionUser, serverId?: string): Promise<WebhookView[]> {
    if (serverId !== undefined) await authorize(this.db, user, serverId, "manageWebhooks");
    const rows = await this.db.select().from(schema.webhooks).where(serverId !== undefined ? eq(schema.webhooks.serverId, serverId) : undefined).orderBy(desc(schema.webhooks.id)).all();
    const managed: Row[] = [];
    for (const row of rows) if (await this.manages(user, row)) managed.push(row);
    return managed.map(view);
  }

  async get(user: SessionUser, id: number): Promise<WebhookView> {
    return view(await this.row(user, id));
  }

  async create(user: SessionUser, body: unknown): Promise<WebhookView & { secret?: string }> {
    const input = parseWith(createSchema, body);
    const serverId = input.serverId ?? null;
    await this.assertMayManage(user, serverId, input.allowInternal === true);
    const owned = (await this.db.select({ n: count() }).from(schema.webhooks).where(eq(schema.webhooks.ownerId, user.id)).get())?.n ?? 0;
    if (owned >= MAX_PER_OWNER) throw new KilnError("ErrFieldTooLarge", { field: "webhooks", max: MAX_PER_OWNER });
    if (serverId !== null) {
      const onServer = (await this.db.select({ n: count() }).from(schema.webhooks).where(eq(schema.webhooks.serverId, serverId)).get())?.n ?? 0;
      if (onServer >= MAX_PER_SERVER) throw new KilnError("ErrFieldTooLarge", { field: "webhooks", max: MAX_PER_SERVER });
    }
    const url = webhookUrl(input.url);
    await assertDestination(this.db, url, input.allowInternal === true, this.own);
    const generated = input.secret === undefined ? Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url") : undefined;
    const row = await this.db
      .insert(schema.webhooks)
      .values({ ownerId: user.id, serverId, url: url.toString(), events: JSON.stringify(input.events), secret: input.secret ?? generated!, format: input.format ?? formatForUrl(url), enabled: input.enabled ?? true, allowInternal: input.allowInternal ?? false, createdAt: Date.now() })
      .returning()
      .get();
    await recordEvent(this.db, "webhook.created", { subject: row.id, properties: { webhook: row.id, url: row.url, serverId } });
    return { ...view(row), ...(generated ? { secret: generated } : {}) };
  }

  async update(user: SessionUser, id: number, body: unknown): Promise<WebhookView> {
    const row = await this.row(user, id);
    const input = parseWith(updateSchema, body);
    // Only an administrator sets or keeps an internal address allowed: the allowance was given for
    // the address an administrator saw, so anyone else who gives a new one loses it.
    if (input.allowInternal === true) await this.assertMayManage(user, row.serverId, true);
    const keeps = input.url === undefined || await this.isAdmin(user);
    const allowInternal = input.allowInternal ?? (row.allowInternal && keeps);
    const url = input.url !== undefined ? webhookUrl(input.url) : new URL(row.url);
    if (input.url !== undefined || input.allowInternal !== undefined || input.enabled === true) await assertDestination(this.db, url, allowInternal, this.own);
    const next = {
      url: url.toString(),
      ...(input.events ? { events: JSON.stringify(input.events) } : {}),
      ...(input.secret ? { secret: input.secret } : {}),
      ...(input.format ? { format: input.format } : {}),
      allowInternal,
      ...(input.enabled !== undefined ? { enabled: input.enabled, ...(input.enabled ? { failures: 0, disabledReason: null } : {}) } : {}),
    };
    const saved = await this.db.update(schema.webhooks).set(next).where(eq(schema.webhooks.id, id)).returning().get();
    await recordEvent(this.db, "webhook.changed", { subject: id, properties: { webhook: id, url: saved.url, enabled: saved.enabled } });
    return view(saved);
  }

  async delete(user: SessionUser, id: number): Promise<void> {
    await this.row(user, id);
    await this.db.delete(schema.webhooks).where(eq(schema.webhooks.id, id)).run();
    await recordEvent(this.db, "webhook.deleted", { subject: id, properties: { webhook: id } });
  }

  /** Queues a test delivery now (a `webhook.test` of the endpoint's own format), whatever events it wants; ErrTooManyRequests within TEST_EVERY_MS of the last. */
  async sendTest(user: SessionUser, id: number): Promise<{ deliveryId: string }> {
    const row = await this.row(user, id);
    if (!row.enabled) throw new KilnError("ErrWebhookDisabled", { id });
    const at = Date.now();
    const event = { id: 0, event: "webhook.test" as const, actor: userActor(user), serverId: row.serverId, subject: String(id), ip: null, properties: { webhook: id }, at };
    // The last test's time is kept in the database, so every panel process counts the same tests;
    // it is written in the transaction that queues the delivery: a refusal leaves no trace.
    const deliveryId = await this.db.transaction(async (tx) => {
      const last = await readValue(tx, TEST_KIND, String(id), at);
      if (last !== undefined) throw new KilnError("ErrTooManyRequests", { retryAfter: Math.max(1, Math.ceil((Number(last) + TEST_EVERY_MS - at) / 1000)) });
      const [queued] = await queueDeliveries(tx, event, id);
      if (!queued) throw new KilnError("ErrNoPermission", { permission: "manageWebhooks" });
      await putValue(tx, TEST_KIND, String(id), String(at), at + TEST_EVERY_MS);
      return queued;
    });
    wakeWorkers();
    return { deliveryId };
  }

  /** The endpoint's deliveries, newest first, a page at a time. */
  async deliveries(user: SessionUser, id: number, page: number, limit: number): Promise<{ total: number; deliveries: DeliveryView[] }> {
    await this.row(user, id);
    const where = eq(schema.webhookDeliveries.webhookId, id);
    const total = (await this.db.select({ n: count() }).from(schema.webhookDeliveries).where(where).get())?.n ?? 0;
    const rows = await this.db.select().from(schema.webhookDeliveries).where(where).orderBy(desc(schema.webhookDeliveries.id)).limit(limit).offset((page - 1) * limit).all();
    return {
      total,
      deliveries: rows.map((d) => ({
        id: d.deliveryId,
        event: d.event,
        state: d.state,
        attempts: d.attempts,
        status: d.lastStatus,
        latencyMs: d.lastLatencyMs,
        response: d.lastResponse,
        createdAt: new Date(d.createdAt).toISOString(),
        lastAttemptAt: d.lastAttemptAt ? new Date(d.lastAttemptAt).toISOString() : null,
        nextAttemptAt: d.state === "pending" ? new Date(d.nextAttemptAt).toISOString() : null,
      })),
    };
  }

  /**
   * The servers the caller may add an endpoint for, by name: every one for an administrator, else
   * those where they hold manageWebhooks. A client bound to one server is offered that server at
   * most, as its owner may manage it there: the owner's other servers are as unknown to its token
   * as they are unreachable (their names and ids were listed to it here).
   */
  async servers(user: SessionUser): Promise<{ id: string; name: string }[]> {
    const all = await this.db.select({ id: schema.servers.id, name: schema.servers.name }).from(schema.servers).where(eq(schema.servers.state, "ready")).orderBy(schema.servers.name).all();
    if (user.serverId) {
      const bound = all.filter((s) => s.id === user.serverId);
      return bound.length > 0 && (await this.manages(user, { serverId: user.serverId })) ? bound : [];
    }
    if (await this.isAdmin(user)) return all;
    const mine = new Set(
      (await this.db.select({ serverId: schema.serverUsers.serverId, flags: schema.serverUsers.flags }).from(schema.serverUsers).where(eq(schema.serverUsers.userId, user.id)).all()).filter((row) => row.flags.includes("manageWebhooks")).map((row) => row.serverId),
    );
    return all.filter((s) => mine.has(s.id));
  }

  /** An administrator's own login (not a client bound to one server) manages panel-wide endpoints. */
  async isAdmin(user: SessionUser): Promise<boolean> {
    return await isAdminUser(this.db, user) && !user.serverId;
  }

  private async row(user: SessionUser, id: number): Promise<Row> {
    const row = await this.db.select().from(schema.webhooks).where(eq(schema.webhooks.id, id)).get();
    // Another's endpoint is as absent as one that never was.
    if (!row || !await this.manages(user, row)) throw new KilnError("ErrNotFound", { id });
    return row;
  }

  private async manages(user: SessionUser, row: Pick<Row, "serverId">): Promise<boolean> {
    if (await this.isAdmin(user)) return true;
    if (row.serverId === null) return false;
    try {
      await authorize(this.db, user, row.serverId, "manageWebhooks");
      return true;
    } catch {
      return false;
    }
  }

  private async assertMayManage(user: SessionUser, serverId: string | null, allowInternal: boolean): Promise<void> {
    const admin = await this.isAdmin(user);
    if (serverId === null && !admin) throw new KilnError("ErrNoPermission", { permission: "admin" });
    if (allowInternal && !admin) throw new KilnError("ErrNoPermission", { permission: "allowInternal" });
    if (serverId !== null) await authorize(this.db, user, serverId, "manageWebhooks");
  }
}
