// The server half of "nobody reaches an account with more power than their own": panel scopes are
// not all an account holds, its per-server flags are power too. A users.edit holder who could set
// the password of an account with flags on servers they cannot reach would gain those servers.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";

async function grantsOf(db: Db, userId: number): Promise<Map<string, string[]>> {
  const rows = await db.select({ serverId: schema.serverUsers.serverId, flags: schema.serverUsers.flags }).from(schema.serverUsers).where(eq(schema.serverUsers.userId, userId)).all();
  return new Map(rows.map((r) => [r.serverId, r.flags]));
}

/** True when, on every server the target may reach, the actor holds each of the target's flags. */
export async function holdsEveryServerGrantOf(db: Db, actorId: number, targetId: number): Promise<boolean> {
  if (actorId === targetId) return true;
  const mine = await grantsOf(db, actorId);
  for (const [serverId, flags] of await grantsOf(db, targetId)) {
    const held = mine.get(serverId) ?? [];
    if (!flags.every((flag) => held.includes(flag))) return false;
  }
  return true;
}
