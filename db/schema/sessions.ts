// Login sessions. Only the SHA-256 of a token is stored, so a leaked database grants no access.
import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { users } from "./users";
import { oauth2Clients } from "./oauth2";

export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** "session" for a login, "pending" for a login waiting for its two-factor code, "oauth2" for a client token */
    kind: text("kind", { enum: ["session", "pending", "oauth2"] }).notNull().default("session"),
    clientId: text("client_id").references(() => oauth2Clients.clientId, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);
