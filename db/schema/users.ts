// Accounts, their panel-wide scopes and their per-user settings.
import { sqliteTable, integer, text, primaryKey } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull().unique(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  otpEnabled: integer("otp_enabled", { mode: "boolean" }).notNull().default(false),
  otpSecret: text("otp_secret"),
  createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
});

export const userScopes = sqliteTable(
  "user_scopes",
  {
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    scope: text("scope").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.scope] })],
);

export const userSettings = sqliteTable(
  "user_settings",
  {
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
