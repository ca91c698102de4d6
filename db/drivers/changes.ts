// Telling every panel process that something changed which they may hold in memory (settings,
// a revoked session). PostgreSQL carries the news between processes with LISTEN/NOTIFY; SQLite
// has one panel process, whose listeners are told directly (other processes on the same file, a
// `kiln` command, are seen through the driver's generation by whoever keeps a copy: db/kept.ts).
import type pg from "pg";
import { outsideTransaction } from "./transactions";

export type ChangeListener = (topic: string, detail: string) => void;

export interface ChangeFeed {
  /** Moves whenever a change of `topic` arrived from another process (or the feed was cut and may have missed one). */
  mark(topic: string): number;
  /** Tells every process, this one included. Inside a transaction, others hear it at commit. */
  announce(topic: string, detail?: string, raw?: (sql: string, params: unknown[]) => Promise<unknown>): Promise<void>;
  on(listener: ChangeListener): () => void;
  close(): Promise<void>;
}

export const CHANGES_CHANNEL = "kiln_changes";
const CHANNEL = CHANGES_CHANNEL;
/** The topic every table's trigger announces a write under (db/postgres/migrate), with its schema as the detail. */
export const TABLES_TOPIC = "tables";

class Listeners {
  private readonly set = new Set<ChangeListener>();
  private readonly marks = new Map<string, number>();
  private everything = 0;

  on(listener: ChangeListener) {
    this.set.add(listener);
    return () => void this.set.delete(listener);
  }

  tell(topic: string, detail: string) {
    this.marks.set(topic, (this.marks.get(topic) ?? 0) + 1);
    outsideTransaction(() => {
      for (const listener of this.set) listener(topic, detail);
    });
  }

  /** Every mark moves: the feed was cut, so anything may have changed meanwhile. */
  lost() {
    this.everything++;
    for (const listener of this.set) listener("*", "");
  }

  mark(topic: string) {
    return (this.marks.get(topic) ?? 0) + this.everything * 1_000_000_007;
  }
}

export function localChanges(): ChangeFeed {
  const listeners = new Listeners();
  return {
    mark: (topic) => listeners.mark(topic),
    async announce(topic, detail = "") {
      listeners.tell(topic, detail);
    },
    on: (listener) => listeners.on(listener),
    async close() {},
  };
}

/** One connection kept listening; cut, it reconnects and every mark moves. */
export function postgresChanges(connect: () => pg.Client): ChangeFeed {
  const listeners = new Listeners();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const start = async () => {
    const next = connect();
    next.on("notification", (message) => {
      const payload = message.payload ?? "";
      const at = payload.indexOf("\n");
      listeners.tell(at < 0 ? payload : payload.slice(0, at), at < 0 ? "" : payload.slice(at + 1));
    });
    next.on("error", () => restart());
    next.on("end", () => restart());
    try {
      await next.connect();
      await next.query(`listen ${CHANNEL}`);
      client = next;
      listeners.lost();
    } catch {
      next.end().catch(() => {});
      restart();
    }
  };
  const restart = () => {
    if (closed || retry) return;
    client = undefined;
    listeners.lost();
    retry = setTimeout(() => {
      retry = undefined;
      void start();
    }, 500);
  };
  const ready = start();

  return {
    mark: (topic) => (client ? listeners.mark(topic) : NaN),
    async announce(topic, detail = "", raw) {
      await ready;
      if (!raw) throw new Error("announce on PostgreSQL needs a query function");
      await raw("select pg_notify($1, $2)", [CHANNEL, detail ? `${topic}\n${detail}` : topic]);
    },
    on: (listener) => listeners.on(listener),
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
