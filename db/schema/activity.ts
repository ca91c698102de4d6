// The activity log: one row per recorded event (core/activity names them). Rows keep ids and names
// as they were, with no foreign keys: the log must still say who deleted a file after the user or
// the server is gone. Pruned by age and count (server/services/activity/retention).
import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";

export const activity = sqliteTable(
  "activity",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    event: text("event").notNull(),
    actorType: text("actor_type", { enum: ["user", "client", "node", "task", "system"] }).notNull(),
    /** A user's or node's id as text, an OAuth2 client's id, a task's id; null for the system. */
    actorId: text("actor_id"),
    /** The name at the time (a username, a client's name, a node's or a task's name). */
    actorName: text("actor_name"),
    /** The user an OAuth2 client or a task acted for. */
    onBehalfOf: integer("on_behalf_of"),
    serverId: text("server_id"),
    /** What else it concerns, as text: a user's id (user.*), a node's (node.*), a webhook's. */
    subject: text("subject"),
    ip: text("ip"),
    /** JSON object: only the properties core/activity's rule for the event keeps. */
    properties: text("properties").notNull().default("{}"),
    at: integer("at").notNull(),
  },
  (t) => [index("activity_at_idx").on(t.at), index("activity_server_idx").on(t.serverId, t.at), index("activity_actor_idx").on(t.actorType, t.actorId, t.at), index("activity_event_idx").on(t.event, t.at)],
);
