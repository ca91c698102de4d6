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
type Tx = Pick<Db, "select" | "insert" | "$kiln">;

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
    ids.push(deliveryId);
  }
  // The process that sends deliveries may be another panel on the same database: it hears at commit.
  await tx.$kiln.announce("webhooks");
  return ids;
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
