// Sends queued deliveries (./queue) from the database, so a delivery survives a restart or a
// kill: each attempt is claimed in the row (attempts + 1, the next time set) before the request
// leaves, so a panel killed mid-attempt sends it again after the delay — at least once, and a
// receiver tells a repeat by its Kiln-Delivery id. Retries follow the configured delays (the last
// repeats) until the delivery is as old as giveUpAfterMs; an endpoint that failed DISABLE_AFTER
// attempts in a row is turned off with a note its owner sees.
//
// One worker runs at a time, in the panel holding the "webhooks" lease (server/cli/panel), and it
// shares its SLOTS between endpoints, never first come first served: an endpoint has at most one
// delivery in flight (its own are sent oldest first), the endpoint served longest ago goes first,
// one owner's server endpoints hold at most SLOTS.perOwner, and SLOTS.keptForPanelWide are kept
// for panel-wide endpoints (administrators' own). A receiver that answers just before the attempt
// timeout, or a queue its manager flooded, so delays its own deliveries only; an administrator's
// alert starts as soon as it is due.
import { outsideTransaction } from "../../../db/drivers/transactions";
import { and, asc, count, eq, gt, inArray, lte, min, notInArray } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { recordEvent, onRecorded } from "../activity/record";
import { SYSTEM } from "../activity/actor";
import { assertDestination, webhookUrl, type PanelPorts } from "./destination";
import { signature } from "./payload";
import { fetchAtAddresses } from "../../../core/net/pinned-fetch";
import { onQueued } from "./queue";
import { KilnError } from "../../../core/errors";

export interface WebhookRetries {
  /** Wait after the first failed attempt, the second, …; the last repeats. */
  delaysMs: number[];
  /** A delivery still failing this long after its event is given up. */
  giveUpAfterMs: number;
}

/** 10 s, 30 s, 2 min, 10 min, then hourly, for a day. */
export const DEFAULT_RETRIES: WebhookRetries = { delaysMs: [10_000, 30_000, 120_000, 600_000, 3_600_000], giveUpAfterMs: 24 * 3_600_000 };
export const DISABLE_AFTER = 20;
const ATTEMPT_TIMEOUT_MS = 10_000;
/**
 * The worker's slots: attempts in flight at once, all endpoints together; those server endpoints
 * never take (however many of them are slow, a panel-wide endpoint finds one free); and the most
 * one owner's server endpoints take, however many endpoints they made.
 */
export const SLOTS = { total: 8, keptForPanelWide: 2, perOwner: 2 } as const;
const EXCERPT = 500;
/** The longest the worker sleeps without looking (a delivery queued by another process). */
const IDLE_LOOK_MS = 60_000;
/** Endpoints whose last turn is remembered; past it the memory starts again (every endpoint equal). */
const SERVED_KEPT = 10_000;

/** An attempt in flight (its endpoint, and what the slot rules count it as), or an endpoint with a delivery due. */
type Slot = Pick<typeof schema.webhooks.$inferSelect, "ownerId"> & { webhookId: number; panelWide: boolean };
type Ready = Slot & { due: number };

type Delivery = typeof schema.webhookDeliveries.$inferSelect;

export class WebhookWorker {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Deliveries in flight from this process, by row id. */
  private readonly inFlight = new Map<number, Slot>();
  /** When each endpoint last had an attempt start: the one served longest ago goes first. */
  private readonly served = new Map<number, number>();
  private pumping = false;
  private pumpAgain = false;
  private stopped = false;
  private unsubscribe: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly own: PanelPorts,
    private readonly retries: WebhookRetries = DEFAULT_RETRIES,
  ) {}

  start(): void {
    // Deliveries another panel process queued (several panels on one database) wake this one too.
    const queuedElsewhere = this.db.$kiln.changes.on((topic) => (topic === "webhooks" || topic === "*") && this.wake());
    this.unsubscribe = [onRecorded(() => this.wake()), onQueued(() => this.wake()), queuedElsewhere];
    this.wake();
  }

  stop(): void {
    this.stopped = true;
    for (const off of this.unsubscribe) off();
    if (this.timer) clearTimeout(this.timer);
  }

  wake(delayMs = 0): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    // Woken from inside a transaction (a recorded event), the pump still runs on its own.
    this.timer = outsideTransaction(() => setTimeout(() => this.pump(), Math.max(0, delayMs)));
  }

  /** One pass at a time: a wake during a pass runs another after it, so slots are counted by one hand. */
  private async pump(): Promise<void> {
    this.timer = null;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    let next: number | undefined;
    try {
      do {
        this.pumpAgain = false;
        next = await this.fill();
      } while (this.pumpAgain && !this.stopped);
    } catch (error) {
      // The database unreachable a moment: looked at again soon, not at the next event only.
      if (!this.stopped) console.error(`kiln: webhook deliveries could not be read: ${(error as Error).message}`);
      next = Date.now() + 5_000;
    } finally {
      this.pumping = false;
    }
    // A wake that came in meanwhile stands: it looks at once.
    if (!this.timer) this.wake(next === undefined ? IDLE_LOOK_MS : Math.min(IDLE_LOOK_MS, next - Date.now()));
  }

  /** Starts what the free slots allow; answers when the next delivery not yet due will be. */
  private async fill(): Promise<number | undefined> {
    const now = Date.now();
    const d = schema.webhookDeliveries;
    if (this.inFlight.size < SLOTS.total) {
      const busy = [...new Set([...this.inFlight.values()].map((slot) => slot.webhookId))];
      const ready = (
        await this.db
          .select({ webhookId: d.webhookId, due: min(d.nextAttemptAt), ownerId: schema.webhooks.ownerId, serverId: schema.webhooks.serverId })
          .from(d)
          .innerJoin(schema.webhooks, eq(schema.webhooks.id, d.webhookId))
          .where(and(eq(d.state, "pending"), lte(d.nextAttemptAt, now), notInArray(d.webhookId, busy)))
          .groupBy(d.webhookId, schema.webhooks.ownerId, schema.webhooks.serverId)
          .all()
      ).map((row): Ready => ({ webhookId: row.webhookId, ownerId: row.ownerId, panelWide: row.serverId === null, due: row.due ?? now }));
      for (const slot of this.choose(ready)) {
        // The endpoint's own deliveries go in order: the one due longest ago.
        const delivery = await this.db.select().from(d).where(and(eq(d.webhookId, slot.webhookId), eq(d.state, "pending"), lte(d.nextAttemptAt, now))).orderBy(asc(d.nextAttemptAt), asc(d.id)).limit(1).get();
        if (!delivery) continue;
        this.inFlight.set(delivery.id, slot);
        try {
          if (!(await this.attempt(delivery, now))) this.pumpAgain = true;
        } catch (error) {
          // Not claimed (the database failed): the slot is free again, and the pass is retried.
          this.inFlight.delete(delivery.id);
          throw error;
        }
      }
    }
    // Due deliveries left waiting wait for a slot: the attempt that frees it wakes the worker.
    return (await this.db.select({ at: min(d.nextAttemptAt) }).from(d).where(and(eq(d.state, "pending"), gt(d.nextAttemptAt, now))).get())?.at ?? undefined;
  }

  /** The endpoints that get the free slots, by the rules above. */
  private choose(ready: Ready[]): Slot[] {
    const slots = [...this.inFlight.values()];
    let free = SLOTS.total - slots.length;
    let serverSlots = slots.filter((slot) => !slot.panelWide).length;
    const byOwner = new Map<number, number>();
    for (const slot of slots) if (!slot.panelWide) byOwner.set(slot.ownerId, (byOwner.get(slot.ownerId) ?? 0) + 1);
    const order = (hook: Ready) => this.served.get(hook.webhookId) ?? 0;
    ready.sort((a, b) => order(a) - order(b) || a.due - b.due || a.webhookId - b.webhookId);
    const chosen: Slot[] = [];
    for (const hook of ready) {
      if (free === 0) break;
      if (!hook.panelWide) {
        const owned = byOwner.get(hook.ownerId) ?? 0;
        if (serverSlots >= SLOTS.total - SLOTS.keptForPanelWide || owned >= SLOTS.perOwner) continue;
        serverSlots++;
        byOwner.set(hook.ownerId, owned + 1);
      }
      free--;
      chosen.push({ webhookId: hook.webhookId, ownerId: hook.ownerId, panelWide: hook.panelWide });
    }
    return chosen;
  }

  /** Claims the delivery and sends it; false when another pump or panel had changed it first. */
  private async attempt(delivery: Delivery, now: number): Promise<boolean> {
    const attempts = delivery.attempts + 1;
    const delays = this.retries.delaysMs;
    const nextAt = now + (delays[Math.min(attempts, delays.length) - 1] ?? IDLE_LOOK_MS);
    const last = nextAt > delivery.createdAt + this.retries.giveUpAfterMs;
    // Claimed before it leaves: a kill from here on sends it again at nextAt. The claim holds only
    // if the row is as it was read, so a delivery is never sent twice at once (by another pump,
    // or by another panel process that took the job over).
    const claimed = await this.db
      .update(schema.webhookDeliveries)
      .set({ attempts, nextAttemptAt: nextAt, lastAttemptAt: now })
      .where(and(eq(schema.webhookDeliveries.id, delivery.id), eq(schema.webhookDeliveries.state, "pending"), eq(schema.webhookDeliveries.attempts, delivery.attempts)))
      .returning({ id: schema.webhookDeliveries.id })
      .get();
    if (!claimed) {
      this.inFlight.delete(delivery.id);
      return false;
    }
    if (this.served.size >= SERVED_KEPT) this.served.clear();
    this.served.set(delivery.webhookId, now);
    void this.send(delivery)
      .then((outcome) => this.settle(delivery, outcome, last))
      .catch((error: Error) => console.error(`kiln: webhook delivery ${delivery.deliveryId} could not be recorded: ${error.message}`))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.wake();
      });
    return true;
  }

  private async send(delivery: Delivery): Promise<Outcome> {
    const hook = await this.db.select().from(schema.webhooks).where(eq(schema.webhooks.id, delivery.webhookId)).get();
    if (!hook || !hook.enabled) return { ok: false, status: null, latencyMs: 0, response: "disabled", final: true };
    const started = performance.now();
    try {
      const url = webhookUrl(hook.url);
      // Sent to an address the check approved, not to a second lookup's answer (./pinned).
      const addresses = await assertDestination(this.db, url, hook.allowInternal, this.own);
      const timestamp = Math.floor(Date.now() / 1000);
      const response = await fetchAtAddresses(url, addresses, {
        method: "POST",
        redirect: "manual",
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        headers: {
          "content-type": "application/json",
          "user-agent": "Kiln-Webhooks",
          "kiln-event": delivery.event,
          "kiln-delivery": delivery.deliveryId,
          "kiln-timestamp": String(timestamp),
          "kiln-signature": signature(hook.secret, timestamp, delivery.body),
        },
        body: delivery.body,
      });
      const response_ = await excerpt(response);
      return { ok: response.status >= 200 && response.status < 300, status: response.status, latencyMs: Math.round(performance.now() - started), response: response_ };
    } catch (error) {
      const reason = error instanceof KilnError ? `${error.code}${error.metadata?.reason ? `: ${String(error.metadata.reason)}` : ""}` : (error as Error).name === "TimeoutError" ? "timeout" : (error as Error).message;
      return { ok: false, status: null, latencyMs: Math.round(performance.now() - started), response: reason.slice(0, EXCERPT) };
    }
  }

  private async settle(delivery: Delivery, outcome: Outcome, last: boolean): Promise<void> {
    const state = outcome.ok ? "delivered" : last || outcome.final ? "failed" : "pending";
    await this.db.transaction(async (tx) => {
      const answer = { lastStatus: outcome.status, lastLatencyMs: outcome.latencyMs, lastResponse: outcome.response };
      // Settled only while still waiting: one failed meanwhile (dropped past its endpoint's cap, or
      // its endpoint turned off) keeps its note and is never queued again; if it arrived after all,
      // the log says delivered, as the receiver saw it.
      const settled = await tx.update(schema.webhookDeliveries)
        .set({ state, ...answer })
        .where(and(eq(schema.webhookDeliveries.id, delivery.id), eq(schema.webhookDeliveries.state, "pending")))
        .returning({ id: schema.webhookDeliveries.id })
        .get();
      if (!settled && outcome.ok) await tx.update(schema.webhookDeliveries).set({ state, ...answer }).where(eq(schema.webhookDeliveries.id, delivery.id)).run();
      if (outcome.final) return;
      if (outcome.ok) {
        await tx.update(schema.webhooks).set({ failures: 0 }).where(eq(schema.webhooks.id, delivery.webhookId)).run();
        return;
      }
      const hook = await tx.select({ failures: schema.webhooks.failures, enabled: schema.webhooks.enabled }).from(schema.webhooks).where(eq(schema.webhooks.id, delivery.webhookId)).get();
      if (!hook) return;
      const failures = hook.failures + 1;
      // Turned off once: deliveries still in flight when it was may fail after it, and count, but say nothing more.
      const disable = failures >= DISABLE_AFTER && hook.enabled;
      await tx.update(schema.webhooks)
        .set({ failures, ...(disable ? { enabled: false, disabledReason: `failed ${failures} attempts in a row; last: ${outcome.status ?? outcome.response}` } : {}) })
        .where(eq(schema.webhooks.id, delivery.webhookId))
        .run();
      if (disable) {
        await tx.update(schema.webhookDeliveries).set({ state: "failed" }).where(and(eq(schema.webhookDeliveries.webhookId, delivery.webhookId), inArray(schema.webhookDeliveries.state, ["pending"]))).run();
        await recordEvent(tx, "webhook.disabled", { actor: SYSTEM, ip: null, subject: delivery.webhookId, properties: { webhook: delivery.webhookId, failures } });
      }
    });
  }
}

interface Outcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  response: string;
  /** Nothing more will be tried (the endpoint is gone or turned off). */
  final?: boolean;
}

/** The answer's first bytes as text, control characters dropped; the rest is not read. */
async function excerpt(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks)).slice(0, EXCERPT).replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}

/** How many deliveries wait to be sent (for the metrics). */
export async function pendingDeliveries(db: Db): Promise<number> {
  return (await db.select({ n: count() }).from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.state, "pending")).get())?.n ?? 0;
}
