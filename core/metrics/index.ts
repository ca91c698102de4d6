// What a node tells the panel for its Prometheus metrics (GET /daemon/metrics, the contract's
// nodeMetrics): every server's figures and the node's own machine, in one answer. The daemon
// writes this shape; the panel reads it as a stranger's words (server/metrics/node-figures) before
// anything is kept or shown.
import type { StatusData } from "../live";

/** A server's state as the metrics name it (kiln_server_state{state=…}). */
export const SERVER_METRIC_STATES = ["running", "stopped", "installing", "starting"] as const;
export type ServerMetricState = (typeof SERVER_METRIC_STATES)[number];

/** The node's status answer reduced to one state: installing, then starting (not ready yet), then running. */
export function metricState(status: StatusData): ServerMetricState {
  if (status.installing) return "installing";
  if (status.starting) return "starting";
  return status.running ? "running" : "stopped";
}

export interface ServerFigures {
  state: ServerMetricState;
  /** Percent of one core (200 is two cores busy); 0 when stopped, null when a running server's could not be read. */
  cpuPercent: number | null;
  /** Resident bytes of the server's processes; 0 when stopped, null when a running server's could not be read. */
  memoryBytes: number | null;
  /** Bytes its folder takes on disk as last measured; null before the first measurement. */
  diskBytes: number | null;
  /** Seconds since it last became running; null when it is not running. */
  uptimeSeconds: number | null;
  /** Restarts (asked for, or automatic after an exit) since the node started. */
  restarts: number;
  /** Times its process ended unasked with a failure since the node started. */
  crashes: number;
  /** Players online as the node last asked the game; null when it has no figure. */
  playersOnline: number | null;
}

export interface MachineFigures {
  /** The 1, 5 and 15 minute load averages. */
  load: [number, number, number];
  memoryTotalBytes: number;
  memoryAvailableBytes: number;
  /** The file system of the node's data folder: its size and what is free to the node's use (null: it could not be read). */
  diskTotalBytes: number | null;
  diskFreeBytes: number | null;
  /** The cores the node's processes may use (null: a node older than this field). */
  cpus: number | null;
}

export interface NodeMetricsAnswer {
  /** The Kiln version the node runs. */
  version: string;
  machine: MachineFigures;
  servers: Record<string, ServerFigures>;
}
