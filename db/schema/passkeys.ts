// WebAuthn credentials (passkeys) registered to an account.
import { sqliteTable, integer, text, blob, index } from "drizzle-orm/sqlite-core";
import { users } from "./users";

export const passkeys = sqliteTable(
  "passkeys",
  {
    /** credential id, base64url */
    id: text("id").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    publicKey: blob("public_key", { mode: "buffer" }).notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports").notNull().default(""),
    name: text("name").notNull(),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp" }),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);
