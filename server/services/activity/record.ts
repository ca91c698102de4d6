// Records one event: the activity row and, in the same transaction, a queued delivery for every
// webhook that wants it (server/services/webhooks/queue), so neither can exist without the other.
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { EVENTS, keptProperties, type EventName, type EventRule } from "../../../core/activity";
import { currentActor, currentAddress, type Actor } from "./actor";
import { queueDeliveries } from "../webhooks/queue";

export interface EventDetails {
  serverId?: string | null;
  subject?: string | number | null;
  properties?: Record<string, unknown>;
  /** Defaults to the request's actor (./actor). */
  actor?: Actor;
  /** Defaults to the request's address. */
  ip?: string | null;
  at?: number;
}

export interface RecordedEvent {
  id: number;
  event: EventName;
  actor: Actor;
  serverId: string | null;
  subject: string | null;
  ip: string | null;
  properties: Record<string, unknown>;
  at: number;
}

/** A transaction on the panel's database, as `db.transaction` hands it to its body. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const listeners = new Set<(event: RecordedEvent) => void>();

/** Told of each event once it is written (the webhook worker wakes on it). */
export function onRecorded(listener: (event: RecordedEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function recordEvent(db: Db, event: EventName, details: EventDetails = {}): Promise<RecordedEvent> {
  const recorded = await db.transaction(async (tx) => await writeEvent(tx, event, details));
  announce(recorded);
  return recorded;
}

/**
 * The row and its deliveries, in a transaction the caller holds (a refused login's row is written
 * with the count that decides it); `announce` it once that transaction has committed.
 */
export async function writeEvent(tx: Tx, event: EventName, details: EventDetails = {}): Promise<RecordedEvent> {
  const rule = EVENTS[event] as EventRule;
  const actor = details.actor ?? currentActor();
  const row = {
    event,
    actorType: actor.type,
    actorId: actor.id,
    actorName: actor.name,
    onBehalfOf: actor.onBehalfOf ?? null,
    serverId: rule.server ? (details.serverId ?? null) : null,
    subject: details.subject === undefined || details.subject === null ? null : String(details.subject),
    ip: details.ip === undefined ? currentAddress() : details.ip,
    properties: JSON.stringify(keptProperties(event, details.properties)),
    at: details.at ?? Date.now(),
  };
  const { id } = await tx.insert(schema.activity).values(row).returning({ id: schema.activity.id }).get();
  const out: RecordedEvent = { id, event, actor, serverId: row.serverId, subject: row.subject, ip: row.ip, properties: JSON.parse(row.properties), at: row.at };
  await queueDeliveries(tx, out);
  return out;
}

/** Tells the listeners (the webhook worker) of a row whose transaction has committed. */
export function announce(recorded: RecordedEvent): void {
  for (const listener of listeners) listener(recorded);
}
