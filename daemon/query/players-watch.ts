// A running server's players, asked every `intervalMs` (the node's config, 15 s by default): the
// first query as soon as it is running, then on the interval, never a second while one is in
// flight (a slow game only delays its own next figure). Stopped: no timer, no state. Listeners
// hear only a change of what a viewer sees (core/players samePlayers), so the socket stays quiet
// while nothing happens.
import { samePlayers, type PlayersState } from "../../core/players/players-state";
import type { QueryPlan } from "./query-target";
import { queryServer, type QueryTarget } from "./query-server";

export interface PlayersWatchDeps {
  intervalMs: number;
  /** What to ask, read afresh each time (a definition may change while it runs); null: no query declared. */
  plan(): QueryPlan | null;
  /** Where the server is reached from the node. */
  host(): string;
  /** The query itself (./query-server); a bench or test may count calls. */
  query?(target: QueryTarget): Promise<PlayersState>;
}

export class PlayersWatch {
  private timer: ReturnType<typeof setInterval> | null = null;
  private inFlight = false;
  private state: PlayersState | null = null;
  private readonly listeners = new Set<(state: PlayersState | null) => void>();

  constructor(private readonly deps: PlayersWatchDeps) {}

  /** The last result; null while the server is not running. */
  current(): PlayersState | null {
    return this.state;
  }

  onChange(listener: (state: PlayersState | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called with the server's readiness: running starts the loop, anything else ends it and clears the state. */
  follow(running: boolean): void {
    if (running && !this.timer) {
      this.timer = setInterval(() => void this.tick(), this.deps.intervalMs);
      this.timer.unref?.();
      // Running: the state says so at once (an API caller hears "not asked yet", not "offline").
      this.set({ error: "ErrQueryUnavailable", reason: "notQueriedYet", queriedAt: Date.now() });
      void this.tick();
    } else if (!running && this.timer) {
      this.stop();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.set(null);
  }

  /** One query now, unless one is in flight (then that one's answer stands). */
  async tick(): Promise<void> {
    if (this.inFlight) return;
    const plan = this.deps.plan();
    if (!plan) return this.set({ error: "ErrQueryUnavailable", reason: "notDeclared", queriedAt: Date.now() });
    if (plan.port === null) return this.set({ error: "ErrQueryUnavailable", reason: "noAnswer", queriedAt: Date.now() });
    this.inFlight = true;
    try {
      const next = await (this.deps.query ?? queryServer)({ type: plan.type, host: this.deps.host(), port: plan.port });
      // The server stopped while the query ran: its answer is no longer true.
      if (this.timer) this.set(next);
    } finally {
      this.inFlight = false;
    }
  }

  private set(next: PlayersState | null): void {
    const changed = !samePlayers(this.state, next);
    this.state = next;
    if (changed) for (const listener of this.listeners) listener(next);
  }
}
