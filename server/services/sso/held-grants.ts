// Rights a sign-in rule granted, as the account's pages show them: each is the rule's until an
// administrator detaches it, and no hand edit (a scope, a role, a server flag) may change it before
// that, so a provider's next login or refresh never fights a hand-made change (./detach-grant).
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import type { GrantKind } from "../../../core/activity/property-values";

/** core/activity's GRANT_KINDS (user.grant.detached's `kind`). */
export type { GrantKind } from "../../../core/activity/property-values";

export interface HeldGrant {
  kind: GrantKind;
  /** The scope, the role's id, or the flag. */
  value: string;
  /** The server a flag is on; "" for scopes and roles. */
  serverId: string;
  providerId: string;
  providerName: string;
  /** The server's name, for a flag. */
  serverName: string | null;
}

export async function grantsOf(db: Db, userId: number): Promise<HeldGrant[]> {
  const rows = await db
    .select({ kind: schema.ssoGrants.kind, value: schema.ssoGrants.value, serverId: schema.ssoGrants.serverId, providerId: schema.ssoGrants.providerId, providerName: schema.authProviders.name, serverName: schema.servers.name })
    .from(schema.ssoGrants)
    .innerJoin(schema.authProviders, eq(schema.authProviders.id, schema.ssoGrants.providerId))
    .leftJoin(schema.servers, eq(schema.servers.id, schema.ssoGrants.serverId))
    .where(eq(schema.ssoGrants.userId, userId))
    .all();
  // Two rules granting one right show once.
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = `${r.kind}\0${r.value}\0${r.serverId}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Per account on one server, the flags a rule granted and the provider whose rule it is (the server's Users tab). */
export async function ruleFlagsOn(db: Db, serverId: string): Promise<Map<number, Record<string, string>>> {
  const rows = await db.select({ userId: schema.ssoGrants.userId, flag: schema.ssoGrants.value, provider: schema.authProviders.name }).from(schema.ssoGrants).innerJoin(schema.authProviders, eq(schema.authProviders.id, schema.ssoGrants.providerId)).where(and(eq(schema.ssoGrants.kind, "flag"), eq(schema.ssoGrants.serverId, serverId))).all();
  const byUser = new Map<number, Record<string, string>>();
  for (const row of rows) byUser.set(row.userId, { ...byUser.get(row.userId), [row.flag]: row.provider });
  return byUser;
}

/** Refuses a hand edit that would change any of `changed` (values of one kind, on one server for flags) while a rule holds it. */
export async function assertNotRuleGranted(db: Db, userId: number, kind: GrantKind, changed: readonly string[], serverId = ""): Promise<void> {
  if (changed.length === 0) return;
  const held = await db.select({ value: schema.ssoGrants.value, provider: schema.authProviders.name }).from(schema.ssoGrants).innerJoin(schema.authProviders, eq(schema.authProviders.id, schema.ssoGrants.providerId)).where(and(eq(schema.ssoGrants.userId, userId), eq(schema.ssoGrants.kind, kind), eq(schema.ssoGrants.serverId, serverId))).all();
  const locked = held.find((g) => changed.includes(g.value));
  if (locked) throw new KilnError("ErrGrantedByRule", { provider: locked.provider, value: locked.value });
}
