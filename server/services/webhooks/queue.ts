// Queues an event for every webhook that wants it, inside the transaction that records the event
// (server/services/activity/record): a delivery exists exactly when its event does. Who may hear
// of an event is decided here, at queueing, from the owner's rights now: a panel-wide endpoint
// only while its owner is an administrator; a server's only for that server's events and while
// its owner still holds manageWebhooks there.
//
// An endpoint keeps at most PENDING_PER_ENDPOINT deliveries waiting: one that is slow, down, or
// flooded with events by whoever manages it would otherwise grow the table without end (a
// delivery still waiting is never pruned). Past the cap the oldest waiting one is dropped, not the
// new one: an endpoint that comes back hears what happened last, and each dropped delivery stays
// in its log as failed with DROPPED_NOTE, so its owner sees what was lost and why.
import { and, asc, count, eq, inArray, isNull, or } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { matchesAny } from "../../../core/activity";
import { SCOPES } from "../../../core/scopes";
import type { RecordedEvent } from "../activity/record";
import { deliveryBody } from "./payload";
import type { WebhookFormat } from "../../../core/activity";

/** A transaction or the database: both run the same queries. */
type Tx = Pick<Db, "select" | "insert" | "update" | "$kiln">;

/**
 * Deliveries one endpoint keeps waiting, the one being sent included. A receiver that keeps up
 * has one or two; a hundred is a burst of events or a long outage (the last hundred then arrive
 * when it is back), and it bounds what a manager's own endpoints can hold: 50 endpoints × 100.
 */
export const PENDING_PER_ENDPOINT = 100;
/** The last answer a dropped delivery shows in its endpoint's log (never sent, or not again). */
export const DROPPED_NOTE = `dropped: ${PENDING_PER_ENDPOINT} newer deliveries were waiting for this endpoint`;

/** Queues the event for each endpoint that wants it (or only for endpoint `only`, whatever it wants: a test); answers the delivery ids. */
export async function queueDeliveries(tx: Tx, event: RecordedEvent, only?: number): Promise<string[]> {
  const serverMatch = only !== undefined ? eq(schema.webhooks.id, only) : event.serverId ? or(isNull(schema.webhooks.serverId), eq(schema.webhooks.serverId, event.serverId)) : isNull(schema.webhooks.serverId);
  const enabled = await tx
    .select({ id: schema.webhooks.id, ownerId: schema.webhooks.ownerId, serverId: schema.webhooks.serverId, events: schema.webhooks.events, format: schema.webhooks.format })
    .from(schema.webhooks)
    .where(and(eq(schema.webhooks.enabled, true), serverMatch))
    .all();
  const hooks = [];
  for (const hook of enabled) if ((only !== undefined || matchesAny(JSON.parse(hook.events) as string[], event.event)) && (await ownerMayHear(tx, hook.ownerId, hook.serverId))) hooks.push(hook);
  if (hooks.length === 0) return [];
  const server = event.serverId ? ((await tx.select({ name: schema.servers.name }).from(schema.servers).where(eq(schema.servers.id, event.serverId)).get())?.name ?? event.serverId) : null;
  const ids: string[] = [];
  for (const hook of hooks) {
    const deliveryId = crypto.randomUUID();
    await tx.insert(schema.webhookDeliveries)
      .values({ webhookId: hook.id, deliveryId, event: event.event, body: deliveryBody(hook.format as WebhookFormat, event, { server }), nextAttemptAt: event.at, createdAt: event.at })
      .run();
    await dropOverflow(tx, hook.id);
    ids.push(deliveryId);
  }
  // The process that sends deliveries may be another panel on the same database: it hears at commit.
  await tx.$kiln.announce("webhooks");
  return ids;
}

/**
 * Keeps the endpoint's waiting deliveries to PENDING_PER_ENDPOINT by failing the oldest, in the
 * transaction that queued the new one (serializable on both engines, so two events queued at once
 * cannot both see room). One being sent at that moment may be dropped too: the worker's settle
 * leaves it failed, or marks it delivered if it arrived after all.
 */
async function dropOverflow(tx: Tx, webhookId: number): Promise<void> {
  const waiting = and(eq(schema.webhookDeliveries.webhookId, webhookId), eq(schema.webhookDeliveries.state, "pending"));
  const n = (await tx.select({ n: count() }).from(schema.webhookDeliveries).where(waiting).get())?.n ?? 0;
  if (n <= PENDING_PER_ENDPOINT) return;
  const oldest = await tx.select({ id: schema.webhookDeliveries.id }).from(schema.webhookDeliveries).where(waiting).orderBy(asc(schema.webhookDeliveries.id)).limit(n - PENDING_PER_ENDPOINT).all();
  await tx.update(schema.webhookDeliveries)
    .set({ state: "failed", lastResponse: DROPPED_NOTE })
    .where(and(inArray(schema.webhookDeliveries.id, oldest.map((row) => row.id)), eq(schema.webhookDeliveries.state, "pending")))
    .run();
}

async function ownerMayHear(tx: Tx, ownerId: number, serverId: string | null): Promise<boolean> {
  const admin = await tx.select({ scope: schema.userScopes.scope }).from(schema.userScopes).where(and(eq(schema.userScopes.userId, ownerId), eq(schema.userScopes.scope, SCOPES.admin))).get() !== undefined;
  if (admin) return true;
  if (serverId === null) return false;
  const row = await tx.select({ flags: schema.serverUsers.flags }).from(schema.serverUsers).where(and(eq(schema.serverUsers.serverId, serverId), eq(schema.serverUsers.userId, ownerId))).get();
  return row?.flags.includes("manageWebhooks") ?? false;
}

const wakers = new Set<() => void>();

/** Workers register here to hear of deliveries queued outside an event's recording (a test). */
export function onQueued(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

export function wakeWorkers(): void {
  for (const wake of wakers) wake();
}
