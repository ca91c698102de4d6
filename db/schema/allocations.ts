// A node's pool of addresses and ports, and which server holds each. A server holds at most one
// primary allocation (the address players use) and any number of extras; an allocation nobody
// holds is free. A server without allocations keeps the ports its variables name, as before.
import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { nodes } from "./nodes";
import { servers } from "./servers";

export const allocations = sqliteTable(
  "allocations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    nodeId: integer("node_id").notNull().references(() => nodes.id, { onDelete: "cascade" }),
    /** The address the port is on ("0.0.0.0": every address of the node). */
    ip: text("ip").notNull(),
    port: integer("port").notNull(),
    /** The public name players type (play.example.com), shown in the server's address. */
    alias: text("alias"),
    serverId: text("server_id").references(() => servers.id, { onDelete: "set null" }),
    isPrimary: integer("is_primary", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("allocations_node_ip_port").on(t.nodeId, t.ip, t.port), index("allocations_server_idx").on(t.serverId)],
);
