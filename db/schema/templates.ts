// Templates: blueprints for servers, the whole template as JSON (core/definition's schema).
import { sqliteTable, integer, text } from "drizzle-orm/sqlite-core";

export const templates = sqliteTable("templates", {
  /** The template's name; also its id in the API. */
  id: text("id").primaryKey(),
  display: text("display").notNull().default(""),
  type: text("type").notNull().default("other"),
  definition: text("definition", { mode: "json" }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp" }).notNull(),
});
