// Sends queued deliveries (./queue) from the database, so a delivery survives a restart or a
// kill: each attempt is claimed in the row (attempts + 1, the next time set) before the request
// leaves, so a panel killed mid-attempt sends it again after the delay — at least once, and a
// receiver tells a repeat by its Kiln-Delivery id. Retries follow the configured delays (the last
// repeats) until the delivery is as old as giveUpAfterMs; an endpoint that failed DISABLE_AFTER
// attempts in a row is turned off with a note its owner sees.
import { outsideTransaction } from "../../../db/drivers/transactions";
import { and, asc, count, eq, inArray, lte, min, notInArray } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { recordEvent, onRecorded } from "../activity/record";
import { SYSTEM } from "../activity/actor";
import { assertDestination, webhookUrl, type PanelPorts } from "./destination";
import { signature } from "./payload";
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
const CONCURRENCY = 4;
const EXCERPT = 500;
/** The longest the worker sleeps without looking (a delivery queued by another process). */
const IDLE_LOOK_MS = 60_000;

export class WebhookWorker {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly inFlight = new Set<number>();
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

  private async pump(): Promise<void> {
    this.timer = null;
    const now = Date.now();
    const free = CONCURRENCY - this.inFlight.size;
    if (free > 0) {
      const due = await this.db
        .select()
        .from(schema.webhookDeliveries)
        .where(and(eq(schema.webhookDeliveries.state, "pending"), lte(schema.webhookDeliveries.nextAttemptAt, now), notInArray(schema.webhookDeliveries.id, [...this.inFlight])))
        .orderBy(asc(schema.webhookDeliveries.nextAttemptAt))
        .limit(free)
        .all();
      // Marked in flight before any await: a pump woken meanwhile does not pick them again.
      for (const delivery of due) this.inFlight.add(delivery.id);
      for (const delivery of due) await this.attempt(delivery, now);
    }
    const next = (await this.db.select({ at: min(schema.webhookDeliveries.nextAttemptAt) }).from(schema.webhookDeliveries).where(and(eq(schema.webhookDeliveries.state, "pending"), notInArray(schema.webhookDeliveries.id, [...this.inFlight]))).get())?.at;
    this.wake(next === null || next === undefined ? IDLE_LOOK_MS : Math.min(IDLE_LOOK_MS, next - Date.now()));
  }

  private async attempt(delivery: typeof schema.webhookDeliveries.$inferSelect, now: number): Promise<void> {
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
      return;
    }
    void this.send(delivery)
      .then((outcome) => this.settle(delivery, outcome, last))
      .catch((error: Error) => console.error(`kiln: webhook delivery ${delivery.deliveryId} could not be recorded: ${error.message}`))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.wake();
      });
  }

  private async send(delivery: typeof schema.webhookDeliveries.$inferSelect): Promise<Outcome> {
    const hook = await this.db.select().from(schema.webhooks).where(eq(schema.webhooks.id, delivery.webhookId)).get();
    if (!hook || !hook.enabled) return { ok: false, status: null, latencyMs: 0, response: "disabled", final: true };
    const started = performance.now();
    try {
      const url = webhookUrl(hook.url);
      await assertDestination(this.db, url, hook.allowInternal, this.own);
      const timestamp = Math.floor(Date.now() / 1000);
      const response = await fetch(url, {
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

  private async settle(delivery: typeof schema.webhookDeliveries.$inferSelect, outcome: Outcome, last: boolean): Promise<void> {
    const state = outcome.ok ? "delivered" : last || outcome.final ? "failed" : "pending";
    await this.db.transaction(async (tx) => {
      await tx.update(schema.webhookDeliveries)
        .set({ state, lastStatus: outcome.status, lastLatencyMs: outcome.latencyMs, lastResponse: outcome.response })
        .where(eq(schema.webhookDeliveries.id, delivery.id))
        .run();
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
