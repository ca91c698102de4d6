// Roles: named sets of panel scopes an administrator defines and assigns (by hand, or a claim rule
// of an identity provider). An account's scopes are its own and those of its roles.
import { sqliteTable, integer, text, primaryKey, index } from "drizzle-orm/sqlite-core";
import { users } from "./users";

export const roles = sqliteTable("roles", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  /** JSON list of scopes (core/scopes). */
  scopes: text("scopes").notNull().default("[]"),
  createdAt: integer("created_at").notNull(),
});

export const userRoles = sqliteTable(
  "user_roles",
  {
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    roleId: integer("role_id").notNull().references(() => roles.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index("user_roles_role_idx").on(t.roleId)],
);
