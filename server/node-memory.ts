// What the heartbeat keeps of each node's last status answer (GET /daemon): stored in the node's
// row (`last_status`), so every panel's pages read what the one panel that asks the nodes heard
// (several panels: the heartbeat runs under a lease, services/cluster/leases). One reading of that
// answer per concern (its isolation, its version). A node is another machine, so `read` checks the
// answer each time it is read; an answer it cannot read reads as nothing kept, rather than a stale
// value shown as current.
import type { Db } from "../db";
import { findNodeRow } from "./services/nodes";

/** The most of a status answer kept (a node's answer is a few hundred bytes; a larger one is not kept). */
const STATUS_KEPT_MAX = 16 * 1024;

/** A node's status answer as its row keeps it for every reading of it (markSeen); null when too large to keep. */
export function keptStatus(status: unknown): string | null {
  const text = JSON.stringify(status ?? null);
  return text.length <= STATUS_KEPT_MAX ? text : null;
}

export interface NodeMemory<T> {
  /** What the node's last readable answer said; null when none is kept. */
  recall(db: Db, nodeId: number): Promise<T | null>;
}

export function nodeMemory<T>(read: (status: unknown) => T | null): NodeMemory<T> {
  return {
    async recall(db, nodeId) {
      const kept = (await findNodeRow(db, nodeId))?.lastStatus;
      if (!kept) return null;
      try {
        return read(JSON.parse(kept));
      } catch {
        return null;
      }
    },
  };
}
