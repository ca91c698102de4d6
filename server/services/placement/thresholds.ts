// When a node is loaded enough for Kiln to propose moving servers off it: above either figure for
// the whole period. Moderate defaults: a game host runs machines full by design, so only a node
// near its limit for ten minutes is worth a move.
export interface RebalanceThresholds {
  /** Memory in use, percent of the node's. */
  memoryPercent: number;
  /** CPU busy, percent of the node's cores. */
  cpuPercent: number;
  /** How long the node must stay above, in minutes. */
  minutes: number;
}

export const DEFAULT_REBALANCE: RebalanceThresholds = { memoryPercent: 90, cpuPercent: 85, minutes: 10 };
