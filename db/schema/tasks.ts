// Who saved each of a server's tasks, as the panel saw it save them (services/tasks/savers). The
// task itself lives on its node, and a node also says who saved it, but a node is a machine the
// panel reaches, not one it vouches for: a node taken over could name any account (an
// administrator) as a task's saver and so borrow that account's rights. The panel's own record is
// what a task's check before a run, its webhook step and its activity read.
import { sqliteTable, integer, text, primaryKey } from "drizzle-orm/sqlite-core";
import { servers } from "./servers";

export const taskSavers = sqliteTable(
  "task_savers",
  {
    /** Keyed by server and task id: a server moved to another node keeps its tasks, and their savers. */
    serverId: text("server_id").notNull().references(() => servers.id, { onDelete: "cascade" }),
    taskId: text("task_id").notNull(),
    /**
     * The account that saved it. No foreign key: a saver deleted since is refused as one without
     * access, by id (account ids are never given out again), which a missing row would not say.
     */
    userId: integer("user_id").notNull(),
    /** The OAuth2 client that saved it, if one did. No foreign key: a client deleted since must stop the task, not leave it with the account's whole rights. */
    clientId: text("client_id"),
    /** The endpoints its webhook steps named when saved: a node's report of a step to another endpoint sends nothing. */
    webhooks: text("webhooks", { mode: "json" }).$type<number[]>().notNull(),
    savedAt: integer("saved_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.taskId] })],
);

/**
 * The servers whose tasks' savers the panel may still take from their node, once (services/tasks/
 * saver-backfill): those that existed when the panel began keeping task_savers (the migration
 * that made this table listed them all), whose tasks were saved before any record was kept. Each
 * row goes once its node has answered its task list; a server made since never has one, so a node
 * can never name the savers of its tasks.
 */
export const taskSaverBackfills = sqliteTable("task_saver_backfills", {
  serverId: text("server_id").primaryKey().references(() => servers.id, { onDelete: "cascade" }),
});
