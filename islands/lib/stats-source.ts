// Where the stats charts get their samples: a tiny interface the ServerStats island is written
// against, and the adapter onto the page's shared live connection (./server-live), which sends
// "stat" over the socket when it is open and otherwise GETs /proxy/daemon/server/{id}/stats.
// Kept apart from the island so a test can hand the island its own source.
import type { StatData } from "../../core/live";
import type { PlayersState } from "../../core/players/players-state";
import { serverLive } from "./server-live";

export interface StatsSource {
  /** Asks for one stat; the answer arrives through onStat (or onError when it cannot). */
  request(): void;
  /** Subscribes to stats; returns the unsubscribe function. */
  onStat(handler: (data: StatData) => void): () => void;
  /** Subscribes to failed requests; returns the unsubscribe function. */
  onError?(handler: (error: unknown) => void): () => void;
  /** Subscribes to the node's players figure (sent on connect and on a change); returns the unsubscribe function. */
  onPlayers?(handler: (state: PlayersState | null) => void): () => void;
  /** Lets go of the source (the shared connection itself stays open for the page's other islands). */
  close?(): void;
}

function isStatData(value: unknown): value is StatData {
  const v = value as StatData | null | undefined;
  return typeof v === "object" && v !== null && typeof v.cpu === "number" && typeof v.memory === "number";
}

/** The stats of one server through the page's live connection. While an HTTP request for a stat
 * is still out, a further request is dropped, so a slow daemon never piles requests up. */
export function liveStatsSource(serverId: string): StatsSource {
  const live = serverLive(serverId);
  const unsubscribers = new Set<() => void>();
  const errorHandlers = new Set<(error: unknown) => void>();
  let pending = false;
  let closed = false;

  return {
    request() {
      if (closed || pending) return;
      pending = true;
      // send() reports a failure to the user itself and resolves to false.
      void live.send("stat").then((ok) => {
        pending = false;
        if (!ok && !closed) for (const handler of errorHandlers) handler(new Error("stat request failed"));
      });
    },
    onStat(handler) {
      const off = live.on("stat", (message) => {
        if (!closed && isStatData(message.data)) handler(message.data);
      });
      unsubscribers.add(off);
      return () => {
        off();
        unsubscribers.delete(off);
      };
    },
    onPlayers(handler) {
      if (live.lastPlayers) handler(live.lastPlayers as PlayersState);
      const off = live.on("players", (message) => {
        if (!closed) handler((message.data as PlayersState | null | undefined) ?? null);
      });
      unsubscribers.add(off);
      return () => {
        off();
        unsubscribers.delete(off);
      };
    },
    onError(handler) {
      errorHandlers.add(handler);
      return () => void errorHandlers.delete(handler);
    },
    close() {
      closed = true;
      for (const off of unsubscribers) off();
      unsubscribers.clear();
      errorHandlers.clear();
    },
  };
}
