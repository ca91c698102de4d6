// Who saved each task, as the panel itself saw it (db/schema/tasks: task_savers). A node stores
// the task and names its owner too, but the panel never believes that: a node taken over could
// name the administrator and have a task checked, and its webhook step sent, with the
// administrator's rights. Written when a task is created or replaced through the panel, removed
// when it is deleted there (and with its server: a foreign key). Tasks saved before the panel kept
// these were recorded once, from their node's word, at upgrade (./saver-backfill). A task the panel
// has no record of (never saved through this panel) has no saver: it runs nothing
// on the panel's side (services/tasks/scheduled-check refuses its automatic runs, its webhook
// steps send nothing) until someone who may saves it again.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import type { Operation } from "../../../core/tasks";
import type { SessionUser } from "../sessions";

export interface TaskSaver {
  userId: number;
  /** The OAuth2 client that saved it, if one did. */
  clientId: string | undefined;
  /** The endpoints its webhook steps named when saved. */
  webhooks: number[];
}

/** As long as the node events' task ids (services/activity/node-events): a node's longer id for a new task is no task's. */
const MAX_TASK_ID = 64;

/** Whether a node's `id` for a task may be one: a text of 1 to MAX_TASK_ID characters. */
export function isTaskId(id: unknown): id is string {
  return typeof id === "string" && id.length > 0 && id.length <= MAX_TASK_ID;
}

/** The id a node gave a task it created: a node answering something else is a node at fault, and nothing is recorded. */
export function createdTaskId(answer: unknown, nodeName: string): string {
  const id = (answer as { id?: unknown } | null)?.id;
  if (!isTaskId(id)) throw new KilnError("ErrServiceNotAvailable", { node: nodeName });
  return id;
}

/** Records `user` (and its OAuth2 client) as the saver of the task, replacing any earlier saver. */
export async function recordTaskSaver(db: Db, serverId: string, taskId: string, user: SessionUser, operations: Operation[]): Promise<void> {
  const row = {
    userId: user.id,
    clientId: user.clientId ?? null,
    webhooks: [...new Set(operations.flatMap((o) => (o.type === "webhook" ? [o.webhook] : [])))],
    savedAt: Date.now(),
  };
  await db.insert(schema.taskSavers).values({ serverId, taskId, ...row }).onConflictDoUpdate({ target: [schema.taskSavers.serverId, schema.taskSavers.taskId], set: row }).run();
}

export async function forgetTaskSaver(db: Db, serverId: string, taskId: string): Promise<void> {
  await db.delete(schema.taskSavers).where(and(eq(schema.taskSavers.serverId, serverId), eq(schema.taskSavers.taskId, taskId))).run();
}

/** Who the panel saw save the task; null when it never saw it saved. */
export async function taskSaver(db: Db, serverId: string, taskId: string | undefined): Promise<TaskSaver | null> {
  if (taskId === undefined) return null;
  const row = await db
    .select({ userId: schema.taskSavers.userId, clientId: schema.taskSavers.clientId, webhooks: schema.taskSavers.webhooks })
    .from(schema.taskSavers)
    .where(and(eq(schema.taskSavers.serverId, serverId), eq(schema.taskSavers.taskId, taskId)))
    .get();
  return row ? { userId: row.userId, clientId: row.clientId ?? undefined, webhooks: row.webhooks } : null;
}
