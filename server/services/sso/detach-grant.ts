// Detaching a right a sign-in rule granted: the right stays and becomes the account's own, so no
// rule takes it back afterwards. Only someone allowed to manage the account may (the outrank rule,
// its server flags included), and never its holder: detaching keeps a right past the provider's say.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { isGrantKind } from "../../../core/activity/property-values";
import { recordEvent } from "../activity/record";
import { assertMayManage } from "../users/manage";

interface Actor {
  id: number;
  scopes: readonly string[];
}

/** Makes a rule-granted right (one kind, value and server) the account's own. */
export async function detachGrant(db: Db, actor: Actor, userId: number, grant: Record<string, unknown>): Promise<void> {
  const kind = grant.kind;
  if (!isGrantKind(kind)) throw new KilnError("ErrFieldNotBetween", { field: "kind" });
  if (typeof grant.value !== "string" || grant.value.length > 64) throw new KilnError("ErrFieldNotBetween", { field: "value" });
  const serverId = kind === "flag" ? grant.serverId : "";
  if (typeof serverId !== "string" || serverId.length > 64) throw new KilnError("ErrFieldNotBetween", { field: "serverId" });
  // Nobody detaches their own: a right a rule granted them stays the provider's to take back.
  if (actor.id === userId) throw new KilnError("ErrNoPermission", { reason: "a right a sign-in rule granted you stays the provider's" });
  await assertMayManage(db, actor, userId);
  const removed = await db.delete(schema.ssoGrants).where(and(eq(schema.ssoGrants.userId, userId), eq(schema.ssoGrants.kind, kind), eq(schema.ssoGrants.value, grant.value), eq(schema.ssoGrants.serverId, serverId))).returning().all();
  if (removed.length === 0) throw new KilnError("ErrNotFound", { field: "grant" });
  await recordEvent(db, "user.grant.detached", { subject: userId, properties: { kind, value: grant.value, serverId, providers: [...new Set(removed.map((r) => r.providerId))] } });
}
