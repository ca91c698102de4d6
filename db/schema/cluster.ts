// What several panel processes on one database share besides the data itself: who is running
// (panel_instances, each refreshing its row), which of them runs each job that must run once
// (leases, taken for a short time and renewed), and short-lived values one request makes and
// another (perhaps served by another process) uses once (one_time_values). Times in milliseconds.
import { sqliteTable, integer, text, primaryKey, index } from "drizzle-orm/sqlite-core";

export const panelInstances = sqliteTable("panel_instances", {
  /** host:pid:random, made at start */
  id: text("id").primaryKey(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  /** whether this process runs the in-process local node */
  localNode: integer("local_node", { mode: "boolean" }).notNull().default(false),
  startedAt: integer("started_at").notNull(),
  seenAt: integer("seen_at").notNull(),
});

export const leases = sqliteTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

export const oneTimeValues = sqliteTable(
  "one_time_values",
  {
    /** what the value is for: "passkey-challenge", "import-notes", "throttle" */
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    value: text("value").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] }), index("one_time_values_expiry_idx").on(t.expiresAt)],
);
