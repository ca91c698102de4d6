// Accounts, their panel-wide scopes and their per-user settings.
import { sqliteTable, integer, text, primaryKey } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull().unique(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  otpEnabled: integer("otp_enabled", { mode: "boolean" }).notNull().default(false),
  otpSecret: text("otp_secret"),
  /** The last TOTP time step accepted, so a code cannot be used twice. */
  otpLastStep: integer("otp_last_step").notNull().default(0),
  /** "active", or "invited" until the invitee sets a username and password. */
  status: text("status", { enum: ["active", "invited"] }).notNull().default("active"),
  inviteTokenHash: text("invite_token_hash").unique(),
  inviteExpiresAt: integer("invite_expires_at", { mode: "timestamp" }),
  createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
  /**
   * Whether the address is known to be its holder's (services/users/email-confirmation): only such
   * an address names the account for a share. False unless a creator sets it, so a new way to make
   * accounts is unconfirmed until it says otherwise; the migration that added it set every account
   * made before to true.
   */
  emailConfirmed: integer("email_confirmed", { mode: "boolean" }).notNull().default(false),
});

/**
 * The confirmation link mailed to an address for one account: at registration (the account's own
 * address) or for an email change (the new address, pending until the link is used). One per account.
 */
export const emailConfirmations = sqliteTable("email_confirmations", {
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id").notNull().unique().references(() => users.id, { onDelete: "cascade" }),
  email: text("email").notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp" }).notNull(),
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
