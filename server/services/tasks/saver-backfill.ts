// The one-time record of who saved the tasks that existed before the panel kept its own record
// (./savers). Those tasks' savers were known only to their node; without a record every scheduled
// and triggered run of theirs is refused, so an upgrade would have stopped every installation's
// nightly restarts and backups. The migration that made task_saver_backfills listed every server
// that existed then; when the node of one of them answers (the heartbeat, on the panel that holds
// its lease), its tasks are read once and each one the panel has no record of is recorded with the
// owner (and OAuth2 client) the node names, when that account exists (and the client exists and is
// that account's). Then the server's row goes, in the same transaction: it is never read again.
//
// This is trust on first use (docs/security.md): the node's word about tasks saved before the
// upgrade is believed once, as the panel believed it for every run until then. A server made since
// has no row, so a node can never name the savers of its tasks; a task naming an account that does
// not exist is left unrecorded (refused, as any task the panel never saw).
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { MAX_CLIENT_ID, MAX_OPERATIONS, MAX_SERVER_TASKS_BYTES, MAX_TASKS_PER_SERVER } from "../../../core/tasks";
import { callOperation } from "../../daemon-client";
import { NODE_ANSWER_BODY_MS } from "../../node-answer-bounds";
import type { NodeRow } from "../nodes";
import { isTaskId } from "./savers";

/** A node's task list holds at most MAX_SERVER_TASKS_BYTES as stored, plus each task's next run: twice that is ample, and no more is read. */
const ANSWER_BOUNDS = { maxBytes: 2 * MAX_SERVER_TASKS_BYTES, bodyMs: NODE_ANSWER_BODY_MS };

/** A task's saver as the node names it, read as a stranger's word. */
interface Claim {
  taskId: string;
  userId: number;
  clientId: string | null;
  webhooks: number[];
}

/** Records the savers of every pending server's tasks on `node`; a server whose node does not answer stays pending for the next pass. */
export async function backfillTaskSavers(db: Db, node: NodeRow): Promise<void> {
  const pending = await db
    .select({ serverId: schema.taskSaverBackfills.serverId })
    .from(schema.taskSaverBackfills)
    .innerJoin(schema.servers, eq(schema.servers.id, schema.taskSaverBackfills.serverId))
    .where(eq(schema.servers.nodeId, node.id))
    .all();
  for (const { serverId } of pending) {
    const claims = await nodeClaims(node, serverId);
    if (claims === null) continue;
    const trusted = await existingSavers(db, claims);
    await db.transaction(async (tx) => {
      // Gone already (another pass, or the server deleted): nothing is recorded twice.
      const taken = await tx.delete(schema.taskSaverBackfills).where(eq(schema.taskSaverBackfills.serverId, serverId)).returning().get();
      if (!taken) return;
      const savedAt = Date.now();
      // A task saved through the panel since the upgrade has its record: the panel's own word stays.
      for (const c of trusted) await tx.insert(schema.taskSavers).values({ serverId, taskId: c.taskId, userId: c.userId, clientId: c.clientId, webhooks: c.webhooks, savedAt }).onConflictDoNothing().run();
    });
  }
}

/** The savers the node names for the server's tasks (at most MAX_TASKS_PER_SERVER), or null when it gave no list. */
async function nodeClaims(node: NodeRow, serverId: string): Promise<Claim[] | null> {
  try {
    const response = await callOperation(node, "tasks", { id: serverId }, { bounds: ANSWER_BOUNDS });
    if (!response.ok) return null;
    const tasks = ((await response.json()) as { tasks?: unknown } | null)?.tasks;
    if (typeof tasks !== "object" || tasks === null || Array.isArray(tasks)) return null;
    return Object.entries(tasks as Record<string, unknown>).slice(0, MAX_TASKS_PER_SERVER).flatMap(([taskId, task]) => {
      const claim = claimOf(taskId, task);
      return claim ? [claim] : [];
    });
  } catch {
    // The node went away, or its answer was too large or too slow: the next pass asks again.
    return null;
  }
}

function claimOf(taskId: string, task: unknown): Claim | null {
  if (!isTaskId(taskId) || typeof task !== "object" || task === null) return null;
  const { owner, client, operations } = task as { owner?: unknown; client?: unknown; operations?: unknown };
  if (!Number.isSafeInteger(owner) || (owner as number) <= 0) return null;
  if (client !== undefined && (typeof client !== "string" || client.length === 0 || client.length > MAX_CLIENT_ID)) return null;
  const steps = Array.isArray(operations) ? operations.slice(0, MAX_OPERATIONS) : [];
  const webhooks = steps.flatMap((o) => {
    const id = (o as { type?: unknown; webhook?: unknown } | null)?.type === "webhook" ? (o as { webhook: unknown }).webhook : undefined;
    return Number.isSafeInteger(id) && (id as number) > 0 ? [id as number] : [];
  });
  return { taskId, userId: owner as number, clientId: client ?? null, webhooks: [...new Set(webhooks)] };
}

/** The claims whose account exists and, when one names a client, whose client exists and is that account's. */
async function existingSavers(db: Db, claims: Claim[]): Promise<Claim[]> {
  if (claims.length === 0) return [];
  const userIds = [...new Set(claims.map((c) => c.userId))];
  const users = new Set((await db.select({ id: schema.users.id }).from(schema.users).where(inArray(schema.users.id, userIds)).all()).map((u) => u.id));
  const clientIds = [...new Set(claims.flatMap((c) => (c.clientId === null ? [] : [c.clientId])))];
  const clients = clientIds.length === 0 ? [] : await db.select({ clientId: schema.oauth2Clients.clientId, userId: schema.oauth2Clients.userId }).from(schema.oauth2Clients).where(and(inArray(schema.oauth2Clients.clientId, clientIds), inArray(schema.oauth2Clients.userId, userIds))).all();
  const clientOwner = new Map(clients.map((c) => [c.clientId, c.userId]));
  return claims.filter((c) => users.has(c.userId) && (c.clientId === null || clientOwner.get(c.clientId) === c.userId));
}
