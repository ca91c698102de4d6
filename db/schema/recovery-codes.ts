// Two-factor recovery codes: each stands in for one TOTP code at login, once. Only a SHA-256 of
// each code is kept (see server/services/auth/recovery-codes.ts for why not argon2id); a used
// code stays, marked, so a second use can be told apart from a wrong code.
import { sqliteTable, integer, text, primaryKey } from "drizzle-orm/sqlite-core";
import { users } from "./users";

export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** hex SHA-256 of the normalised code */
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at", { mode: "timestamp" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);
