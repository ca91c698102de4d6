// What the heartbeat keeps of each node's last status answer (GET /daemon), in memory: one
// reading of that answer per concern (its isolation, its version), each kept per database so
// panels sharing a process (tests) never see each other's nodes. A node is another machine, so
// `read` checks the answer before anything is kept; an answer it cannot read forgets what was
// kept, rather than showing a stale value as current.
import type { Db } from "../db";

export interface NodeMemory<T> {
  /** Records what a node's status answer says; an answer `read` refuses (null) forgets it. */
  remember(db: Db, nodeId: number, status: unknown): void;
  /** What the node's last readable answer said; null when none is kept. */
  recall(db: Db, nodeId: number): T | null;
}

export function nodeMemory<T>(read: (status: unknown) => T | null): NodeMemory<T> {
  const known = new WeakMap<Db, Map<number, T>>();
  return {
    remember(db, nodeId, status) {
      const nodes = known.get(db) ?? new Map<number, T>();
      known.set(db, nodes);
      const value = read(status);
      if (value) nodes.set(nodeId, value);
      else nodes.delete(nodeId);
    },
    recall: (db, nodeId) => known.get(db)?.get(nodeId) ?? null,
  };
}
