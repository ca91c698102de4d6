// A task's webhook step (the node reports it as task.webhook): the text goes to one endpoint, which
// must be one the task's saver may use, when the task is saved and again when the step runs: an
// endpoint the saver manages (the store's one rule, Webhooks.get), panel-wide or this server's.
// The saver is the one the panel recorded (services/tasks/savers), never the owner or client the
// node names, and the endpoint must be one the task named when that saver saved it: a node taken
// over cannot borrow the administrator's rights, nor send a task's text to another endpoint. The
// saver is seen as they are (services/tasks/run-as): an OAuth2 client that saved the task with
// its own view (bound to a server, no administrator of panel-wide endpoints; deleted, nothing),
// else the account. A task the panel has no record of sends nothing. The event is recorded like any other, so the log shows it and endpoints
// that subscribe to task.webhook hear it too; the named endpoint hears it once.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { recordEvent } from "../activity/record";
import type { Actor } from "../activity/actor";
import type { SessionUser } from "../sessions";
import { getUser } from "../users";
import { runView } from "../tasks/run-as";
import type { TaskSaver } from "../tasks/savers";
import { Webhooks } from "./store";
import { queueDeliveries, wakeWorkers } from "./queue";
import { matchesAny } from "../../../core/activity";
import { MAX_WEBHOOK_TEXT } from "../../../core/tasks/constants";

/** Throws ErrNotFound, as the webhooks API answers for an endpoint the caller cannot see, unless `user` may name the endpoint in a step of this server's task. */
export async function assertMayUseTaskWebhook(db: Db, user: SessionUser, serverId: string, webhookId: number): Promise<void> {
  const hook = await new Webhooks(db, { panelPort: 0 }).get(user, webhookId);
  if (hook.serverId !== null && hook.serverId !== serverId) throw new KilnError("ErrNotFound", { id: webhookId });
}

/** `saver`: who the panel saw save the task the node names (null: none; then only the event is recorded). `actor.onBehalfOf` is that saver when they have access to the server. */
export async function deliverTaskWebhook(db: Db, serverId: string, actor: Actor, saver: TaskSaver | null, properties: Record<string, unknown>, at: number): Promise<void> {
  const webhookId = Number(properties.webhook);
  // The node's word: a step's text is at most MAX_WEBHOOK_TEXT when saved, so a node sending more (or no text) is cut to what a step can hold.
  const text = typeof properties.text === "string" ? properties.text.slice(0, MAX_WEBHOOK_TEXT) : undefined;
  const recorded = await recordEvent(db, "task.webhook", { serverId, actor, ip: null, at, properties: { task: actor.type === "task" ? actor.name : undefined, text } });
  if (actor.type !== "task" || !saver || actor.onBehalfOf !== saver.userId || !Number.isSafeInteger(webhookId) || webhookId <= 0) return;
  if (!saver.webhooks.includes(webhookId)) return;
  // The saver's view must allow the endpoint; one that may not (or a client deleted since) makes it as absent.
  try {
    const view = await runView(db, await getUser(db, saver.userId), saver.clientId);
    if (!view) return;
    await assertMayUseTaskWebhook(db, view, serverId, webhookId);
  } catch (error) {
    if (error instanceof KilnError) return;
    throw error;
  }
  const hook = await db.select({ id: schema.webhooks.id, events: schema.webhooks.events }).from(schema.webhooks).where(eq(schema.webhooks.id, webhookId)).get();
  if (!hook) return;
  // Subscribed to the event already: recording it queued this endpoint's delivery.
  if (matchesAny(JSON.parse(hook.events) as string[], "task.webhook")) return;
  // In a transaction of its own, as an event's are: the endpoint's cap on waiting deliveries is counted and kept in one step.
  if ((await db.transaction((tx) => queueDeliveries(tx, recorded, hook.id))).length > 0) wakeWorkers();
}
