// Tells the panel what happened on this node's servers (its activity log and webhooks hear it at
// POST PANEL_CALLS.events): events wait in a bounded queue and leave in batches as soon as they
// come, so a crash reaches the panel in a fraction of a second. A panel that does not answer is
// asked again with growing pauses; when it stays away long, the oldest events make room (the
// count dropped is said in the log once the panel answers again).
import { PANEL_CALLS } from "../../core/contract/panel-calls";
import { panelAuthorization, type NodeCredentials } from "../http/node-auth";

export interface NodeEvent {
  serverId: string;
  event: string;
  at: number;
  properties?: Record<string, unknown>;
  /** Who caused it when the node knows: an SFTP login's user, or a task (and the user who saved it). */
  actor?: { type: "user"; id: number } | { type: "task"; id: string; name: string; owner?: number; client?: string };
}

export type ReportEvent = (event: NodeEvent) => void;

const MAX_QUEUED = 1000;
const BATCH = 200;
const TIMEOUT_MS = 10_000;
const PAUSES_MS = [500, 1000, 2000, 5000, 10_000, 30_000];

export class PanelReporter {
  private readonly queue: NodeEvent[] = [];
  private sending = false;
  private failures = 0;
  private dropped = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly url: string;

  constructor(
    panelUrl: string,
    private readonly credentials: NodeCredentials,
    private readonly log: (line: string) => void,
  ) {
    this.url = new URL(PANEL_CALLS.events, panelUrl).toString();
  }

  readonly report: ReportEvent = (event) => {
    if (this.queue.length >= MAX_QUEUED) {
      this.queue.shift();
      this.dropped++;
    }
    this.queue.push(event);
    if (!this.sending && !this.timer) queueMicrotask(() => void this.flush());
  };

  /** Sends what waits; resolves when the queue is empty or the panel did not answer. */
  async flush(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.slice(0, BATCH);
        if (!(await this.send(batch))) return this.retryLater();
        this.queue.splice(0, batch.length);
        if (this.failures > 0 || this.dropped > 0) this.log(`kiln daemon: the panel takes events again${this.dropped > 0 ? ` (${this.dropped} older ones were dropped while it was away)` : ""}`);
        this.failures = 0;
        this.dropped = 0;
      }
    } finally {
      this.sending = false;
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private retryLater(): void {
    const pause = PAUSES_MS[Math.min(this.failures, PAUSES_MS.length - 1)]!;
    if (this.failures === 0) this.log(`kiln daemon: the panel does not take events now; trying again (${this.queue.length} waiting)`);
    this.failures++;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, pause);
    this.timer.unref?.();
  }

  private async send(events: NodeEvent[]): Promise<boolean> {
    try {
      const response = await fetch(this.url, {
        method: "POST",
        headers: { authorization: panelAuthorization(this.credentials, "POST", this.url), "content-type": "application/json" },
        body: JSON.stringify({ events }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await response.body?.cancel();
      // A batch the panel refuses as malformed would be refused again: it is dropped, not retried.
      if (response.status === 400) {
        this.log(`kiln daemon: the panel refused ${events.length} event(s) as malformed`);
        return true;
      }
      return response.ok;
    } catch {
      return false;
    }
  }
}
