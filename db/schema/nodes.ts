// Nodes: the machines that run servers. The secret signs the panel's calls to the node
// (HMAC, core/node-token), so it is kept as is rather than hashed: a hash could not sign.
import { sqliteTable, integer, text } from "drizzle-orm/sqlite-core";

export const nodes = sqliteTable("nodes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  publicHost: text("public_host").notNull(),
  publicPort: integer("public_port").notNull(),
  /** Where the panel reaches the node's API; may equal the public address. */
  privateHost: text("private_host").notNull(),
  privatePort: integer("private_port").notNull(),
  sftpPort: integer("sftp_port").notNull(),
  /** An optional address servers on other nodes use to reach servers on this one. */
  internalHost: text("internal_host"),
  secret: text("secret").notNull(),
  /** The node `kiln panel` runs in-process; its address follows the panel's start-up. */
  isLocal: integer("is_local", { mode: "boolean" }).notNull().default(false),
  /** JSON list of tags an administrator sets ("location=eu", "ssd"): a creation's constraints must all be among them. */
  tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default([]),
  /** A draining node takes no new servers by placement (its own servers go on running). */
  draining: integer("draining", { mode: "boolean" }).notNull().default(false),
  lastSeenAt: integer("last_seen_at", { mode: "timestamp" }),
  /** The panel process (panel_instances.id) that last heard from the node. */
  lastPanel: text("last_panel"),
  /** The node's last status answer (GET /daemon) as JSON, kept by the heartbeat for every panel's pages (server/node-memory). */
  lastStatus: text("last_status"),
  createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
});
