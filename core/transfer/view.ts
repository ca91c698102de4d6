// A transfer as the panel shows it (GET /api/servers/{id}/transfer, the Admin tab, the node page).
import type { TransferSkipped } from "./wire";

export const TRANSFER_ACTIVE_STATES = ["copying", "syncing", "starting"] as const;

export interface TransferView {
  id: string;
  state: "copying" | "syncing" | "starting" | "done" | "failed" | "cancelled";
  from: string;
  to: string;
  keepRunning: boolean;
  allocationPolicy: "keep" | "new";
  bytes: number;
  totalBytes: number;
  /** bytes per second */
  rate: number;
  /** seconds left at the current rate; null when not known */
  eta: number | null;
  error: string | null;
  /** What the source left out of a move that completed (hard links, FIFOs, sockets, devices); null when nothing. */
  skipped: TransferSkipped | null;
  startedAt: number;
  finishedAt: number | null;
}
