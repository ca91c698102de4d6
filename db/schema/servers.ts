// Servers as the panel knows them (the node holds the definition) and who may reach each one.
import { sqliteTable, integer, text, primaryKey, index } from "drizzle-orm/sqlite-core";
import { nodes } from "./nodes";
import { users } from "./users";
import type { DefinitionBounds } from "../../core/definition/bounds";

export const servers = sqliteTable(
  "servers",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull().unique(),
    nodeId: integer("node_id").notNull().references(() => nodes.id),
    /** The template it was created from, for the record; the definition lives on the node. */
    template: text("template").notNull().default(""),
    /**
     * The definition's type at creation ("minecraft-java"), as PufferPanel's server list gives it
     * (its clients pick an icon by it); "generic", PufferPanel's own default, when not recorded.
     */
    type: text("type").notNull().default("generic"),
    /** From the definition's ip and port variables, for the address shown in lists. */
    ip: text("ip"),
    port: integer("port"),
    /** The primary allocation's alias (the public name players type), shown in its address instead of the ip. */
    alias: text("alias"),
    /** Extra allocations a user with manageAllocations may take from the node's pool for this server (administrators set it). */
    allocationLimit: integer("allocation_limit").notNull().default(0),
    /** The memory its definition asks for (MiB) at creation, which placement counts as taken on its node while it is not running. */
    memoryMiB: integer("memory_mib"),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
    /**
     * "creating" from the row's insert until the node holds the definition, "deleting" from the
     * delete request until the node confirmed; only "ready" servers are shown. A row left in
     * another state by a crash is finished at the next reconcile (server/services/servers/reconcile).
     */
    state: text("state", { enum: ["creating", "ready", "deleting"] }).notNull().default("ready"),
    /**
     * The panel's copy of the definition's bounds (core/definition/bounds: limits, file denylist,
     * environment type, docker network), written whenever the panel writes them to the node; a move
     * lays it over what the source answers. Null: a server made before the panel kept it, which the
     * heartbeat records once from its node (services/servers/bounds).
     */
    bounds: text("bounds", { mode: "json" }).$type<DefinitionBounds>(),
  },
  (t) => [index("servers_node_idx").on(t.nodeId)],
);

/**
 * Every server id this panel ever issued, kept after the server is gone. A definition on a node
 * with no server row is removed only when its id is here: this panel made it and has since rolled
 * it back. Anything else (a panel database restored from an old backup, a node shared by mistake)
 * is left in place and logged, never deleted with its files.
 */
export const issuedServerIds = sqliteTable("issued_server_ids", {
  id: text("id").primaryKey(),
});

/** One row per user with access to a server; flags is the JSON list of granted permission flags. */
export const serverUsers = sqliteTable(
  "server_users",
  {
    serverId: text("server_id").notNull().references(() => servers.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    flags: text("flags", { mode: "json" }).$type<string[]>().notNull(),
    /** When the access was given (ms): the first row of a server is its owner's. */
    addedAt: integer("added_at").notNull().$defaultFn(() => Date.now()),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.userId] }), index("server_users_user_idx").on(t.userId)],
);
