// Webhooks: endpoints a user registered for events, and the durable queue of deliveries to them
// (server/services/webhooks). A delivery row is written in the same transaction as the activity
// row it carries, so a crash between the two cannot lose one or send one for nothing.
import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { users } from "./users";
import { servers } from "./servers";

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** Null: every server (administrators only); else one server the owner may manageWebhooks on. */
    serverId: text("server_id").references(() => servers.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** JSON array of event names or wildcards (core/activity/patterns). */
    events: text("events").notNull(),
    secret: text("secret").notNull(),
    format: text("format", { enum: ["json", "discord", "slack"] }).notNull().default("json"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** An administrator let this one endpoint reach a private or loopback address. */
    allowInternal: integer("allow_internal", { mode: "boolean" }).notNull().default(false),
    /** Deliveries that failed in a row since the last success; the endpoint is disabled at the limit. */
    failures: integer("failures").notNull().default(0),
    /** Why it was turned off by the panel (repeated failure), shown to its owner; null otherwise. */
    disabledReason: text("disabled_reason"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("webhooks_server_idx").on(t.serverId)],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    webhookId: integer("webhook_id").notNull().references(() => webhooks.id, { onDelete: "cascade" }),
    /** A random id sent as Kiln-Delivery: the receiver's key for telling a retry from a new event. */
    deliveryId: text("delivery_id").notNull().unique(),
    event: text("event").notNull(),
    /** The JSON body as first built: every attempt sends the same bytes. */
    body: text("body").notNull(),
    state: text("state", { enum: ["pending", "delivered", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    /** The last attempt: HTTP status (null: no answer), time taken, and the answer's first bytes or the error. */
    lastStatus: integer("last_status"),
    lastLatencyMs: integer("last_latency_ms"),
    lastResponse: text("last_response"),
    lastAttemptAt: integer("last_attempt_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("webhook_deliveries_due_idx").on(t.state, t.nextAttemptAt), index("webhook_deliveries_hook_idx").on(t.webhookId, t.id)],
);
