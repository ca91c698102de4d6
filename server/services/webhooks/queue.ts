// Queues an event for every webhook that wants it, inside the transaction that records the event
// (server/services/activity/record): a delivery exists exactly when its event does. Who may hear
// of an event is decided here, at queueing, from the owner's rights now: a panel-wide endpoint
// only while its owner is an administrator; a server's only for that server's events and while
// its owner still holds manageWebhooks there.
import { and, eq, isNull, or } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { matchesAny } from "../../../core/activity";
import { SCOPES } from "../../../core/scopes";
import type { RecordedEvent } from "../activity/record";
import { deliveryBody } from "./payload";
import type { WebhookFormat } from "../../../core/activity";

/** A transaction or the database: both run the same queries. */
type Tx = Pick<Db, "select" | "insert">;

/** Queues the event for each endpoint that wants it (or only for endpoint `only`, whatever it wants: a test); answers the delivery ids. */
export function queueDeliveries(tx: Tx, event: RecordedEvent, only?: number): string[] {
  const serverMatch = only !== undefined ? eq(schema.webhooks.id, only) : event.serverId ? or(isNull(schema.webhooks.serverId), eq(schema.webhooks.serverId, event.serverId)) : isNull(schema.webhooks.serverId);
  const hooks = tx
    .select({ id: schema.webhooks.id, ownerId: schema.webhooks.ownerId, serverId: schema.webhooks.serverId, events: schema.webhooks.events, format: schema.webhooks.format })
    .from(schema.webhooks)
    .where(and(eq(schema.webhooks.enabled, true), serverMatch))
    .all()
    .filter((hook) => (only !== undefined || matchesAny(JSON.parse(hook.events) as string[], event.event)) && ownerMayHear(tx, hook.ownerId, hook.serverId));
  if (hooks.length === 0) return [];
  const server = event.serverId ? (tx.select({ name: schema.servers.name }).from(schema.servers).where(eq(schema.servers.id, event.serverId)).get()?.name ?? event.serverId) : null;
  return hooks.map((hook) => {
    const deliveryId = crypto.randomUUID();
    tx.insert(schema.webhookDeliveries)
      .values({ webhookId: hook.id, deliveryId, event: event.event, body: deliveryBody(hook.format as WebhookFormat, event, { server }), nextAttemptAt: event.at, createdAt: event.at })
      .run();
    return deliveryId;
  });
}

function ownerMayHear(tx: Tx, ownerId: number, serverId: string | null): boolean {
  const admin = tx.select({ scope: schema.userScopes.scope }).from(schema.userScopes).where(and(eq(schema.userScopes.userId, ownerId), eq(schema.userScopes.scope, SCOPES.admin))).get() !== undefined;
  if (admin) return true;
  if (serverId === null) return false;
  const row = tx.select({ flags: schema.serverUsers.flags }).from(schema.serverUsers).where(and(eq(schema.serverUsers.serverId, serverId), eq(schema.serverUsers.userId, ownerId))).get();
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
