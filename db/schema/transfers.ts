// Servers being moved, or moved, between nodes: one row per transfer, its progress as the target
// node last reported it, and how it ended. At most one transfer of a server is under way at a time.
import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { nodes } from "./nodes";
import type { TransferSkipped } from "../../core/transfer/wire";

export const TRANSFER_STATES = ["copying", "syncing", "starting", "done", "failed", "cancelled"] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

export const transfers = sqliteTable(
  "transfers",
  {
    id: text("id").primaryKey(),
    /** No foreign key: a finished transfer's row outlives its server, as the activity log does. */
    serverId: text("server_id").notNull(),
    fromNodeId: integer("from_node_id").notNull().references(() => nodes.id, { onDelete: "cascade" }),
    toNodeId: integer("to_node_id").notNull().references(() => nodes.id, { onDelete: "cascade" }),
    state: text("state", { enum: TRANSFER_STATES }).notNull(),
    keepRunning: integer("keep_running", { mode: "boolean" }).notNull(),
    allocationPolicy: text("allocation_policy", { enum: ["keep", "new"] }).notNull(),
    bytes: integer("bytes").notNull().default(0),
    totalBytes: integer("total_bytes").notNull().default(0),
    /** Bytes per second over the last report. */
    rate: integer("rate").notNull().default(0),
    error: text("error"),
    /** What the source left out (core/transfer/wire TransferSkipped, as JSON), null when nothing. */
    skipped: text("skipped", { mode: "json" }).$type<TransferSkipped>(),
    by: text("by").notNull(),
    /** The panel process (panel_instances.id) running the move; one that is gone cannot finish it. */
    runner: text("runner"),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("transfers_server_idx").on(t.serverId)],
);
