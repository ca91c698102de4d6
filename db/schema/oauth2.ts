// OAuth2 clients (client_credentials): at account level, or bound to one server. Secrets hashed.
import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { users } from "./users";

export const oauth2Clients = sqliteTable(
  "oauth2_clients",
  {
    clientId: text("client_id").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** null: account level; otherwise the server the client is limited to */
    serverId: text("server_id"),
    name: text("name").notNull().default(""),
    description: text("description").notNull().default(""),
    secretHash: text("secret_hash").notNull(),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [index("oauth2_clients_user_idx").on(t.userId)],
);
