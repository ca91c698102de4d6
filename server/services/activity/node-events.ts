// What a node reports of its servers on its own (POST /api/nodes/events, see
// daemon/events/reporter): lifecycle changes, SFTP changes, scheduled and triggered task runs,
// backups ending, a task's webhook step. A node speaks only of the servers it holds and only in
// these events; a user it names must be one with access to that server, else the node itself is
// recorded as the actor. A task's run is said on behalf of the user the panel saw save the task
// (services/tasks/savers), never the owner the node names. Each event is recorded as any other
// (and so reaches webhooks).
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { z } from "../../../core/zod";
import { parseWith } from "../../../core/validation/parse";
import { callingNodes, nodeHoldsServer, type NodeCall } from "../nodes/caller";
import { recordEvent } from "./record";
import type { Actor } from "./actor";
import { serverAccess } from "../servers/permissions";
import { getUser, scopesOf } from "../users";
import { deliverTaskWebhook } from "../webhooks/task-step";
import { taskSaver, type TaskSaver } from "../tasks/savers";
import { MAX_CLIENT_ID } from "../../../core/tasks";

/** The events a node may report, and nothing else: a node cannot claim a login or a user's change through the panel. */
export const NODE_EVENTS = ["server.started", "server.stopped", "server.crashed", "server.installed", "server.install.failed", "server.file.write", "server.file.delete", "server.file.rename", "server.task.run", "backup.completed", "backup.failed", "task.webhook"] as const;

const MAX_EVENTS = 200;

const actorSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("user"), id: z.number().check(z.int(), z.positive()) }),
  z.object({ type: z.literal("task"), id: z.string().check(z.maxLength(64)), name: z.string().check(z.maxLength(200)), owner: z.optional(z.number().check(z.int())), client: z.optional(z.string().check(z.maxLength(MAX_CLIENT_ID))) }),
]);

const eventsSchema = z.object({
  events: z.array(
    z.object({
      serverId: z.string().check(z.minLength(1), z.maxLength(64)),
      event: z.enum(NODE_EVENTS),
      at: z.number().check(z.int(), z.gte(0)),
      properties: z.optional(z.record(z.string().check(z.maxLength(64)), z.unknown())),
      actor: z.optional(actorSchema),
    }),
  ).check(z.maxLength(MAX_EVENTS)),
});

export async function recordNodeEvents(db: Db, call: NodeCall, body: unknown): Promise<{ recorded: number }> {
  const nodeIds = await callingNodes(db, call);
  const { events } = parseWith(eventsSchema, body);
  const node = (await db.select({ id: schema.nodes.id, name: schema.nodes.name }).from(schema.nodes).where(eq(schema.nodes.id, nodeIds[0]!)).get())!;
  const nodeActor: Actor = { type: "node", id: String(node.id), name: node.name };
  let recorded = 0;
  const now = Date.now();
  for (const event of events) {
    // Another node's server, or one deleted since: not this node's to speak of.
    if (!await nodeHoldsServer(db, nodeIds, event.serverId)) continue;
    const saver = event.actor?.type === "task" ? await taskSaver(db, event.serverId, event.actor.id) : null;
    const actor = await actorOf(db, event.serverId, event.actor, saver) ?? nodeActor;
    // A node's clock is its own: an event is never dated in the panel's future.
    const at = Math.min(event.at, now);
    if (event.event === "task.webhook") {
      await deliverTaskWebhook(db, event.serverId, actor, saver, event.properties ?? {}, at);
      recorded++;
      continue;
    }
    await recordEvent(db, event.event, { serverId: event.serverId, actor, ip: null, at, properties: event.properties });
    recorded++;
  }
  return { recorded };
}

/**
 * The actor a node names, when it is one with access to the server; null otherwise. A task's is
 * on behalf of its saver as the panel recorded it (`saver`), whoever the node names as its owner.
 */
async function actorOf(db: Db, serverId: string, claimed: z.infer<typeof actorSchema> | undefined, saver: TaskSaver | null): Promise<Actor | null> {
  if (!claimed) return null;
  const ownerId = claimed.type === "user" ? claimed.id : saver?.userId;
  const owner = ownerId === undefined ? null : await userWithAccess(db, ownerId, serverId);
  if (claimed.type === "user") return owner ? { type: "user", id: String(owner.id), name: owner.username } : null;
  return { type: "task", id: claimed.id, name: claimed.name, onBehalfOf: owner?.id ?? null };
}

async function userWithAccess(db: Db, userId: number, serverId: string): Promise<{ id: number; username: string } | null> {
  try {
    const user = await getUser(db, userId);
    const access = await serverAccess(db, { id: user.id, username: user.username, email: user.email, scopes: await scopesOf(db, user.id) }, serverId);
    return access.view ? { id: user.id, username: user.username } : null;
  } catch {
    return null;
  }
}
