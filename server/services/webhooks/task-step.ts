// A task's webhook step (the node reports it as task.webhook): the text goes to one endpoint,
// which the task's owner must manage now (an administrator's, or one of this server's where the
// owner holds manageWebhooks). The event is recorded like any other, so the log shows it and
// endpoints that subscribe to task.webhook hear it too; the named endpoint hears it once.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { recordEvent } from "../activity/record";
import type { Actor } from "../activity/actor";
import { getUser, scopesOf } from "../users";
import { Webhooks } from "./store";
import { queueDeliveries, wakeWorkers } from "./queue";
import { matchesAny } from "../../../core/activity";

export async function deliverTaskWebhook(db: Db, serverId: string, actor: Actor, properties: Record<string, unknown>, at: number): Promise<void> {
  const webhookId = Number(properties.webhook);
  const recorded = await recordEvent(db, "task.webhook", { serverId, actor, ip: null, at, properties: { task: actor.type === "task" ? actor.name : undefined, text: properties.text } });
  const owner = actor.onBehalfOf ? await ownerSession(db, actor.onBehalfOf) : null;
  const hook = Number.isInteger(webhookId) ? await db.select({ id: schema.webhooks.id, serverId: schema.webhooks.serverId, events: schema.webhooks.events }).from(schema.webhooks).where(eq(schema.webhooks.id, webhookId)).get() : undefined;
  if (!owner || !hook || (hook.serverId !== null && hook.serverId !== serverId)) return;
  // The owner's right to the endpoint is the store's one rule; an endpoint they may not manage is as absent.
  try {
    await new Webhooks(db, { panelPort: 0 }).get(owner, hook.id);
  } catch {
    return;
  }
  // Subscribed to the event already: recording it queued this endpoint's delivery.
  if (matchesAny(JSON.parse(hook.events) as string[], "task.webhook")) return;
  // In a transaction of its own, as an event's are: the endpoint's cap on waiting deliveries is counted and kept in one step.
  if ((await db.transaction((tx) => queueDeliveries(tx, recorded, hook.id))).length > 0) wakeWorkers();
}

async function ownerSession(db: Db, userId: number) {
  try {
    const user = await getUser(db, userId);
    return { id: user.id, username: user.username, email: user.email, scopes: await scopesOf(db, user.id) };
  } catch {
    return null;
  }
}
