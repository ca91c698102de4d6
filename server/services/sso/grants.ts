// Applying a provider's claim rules at a login: a rule that matches grants its scopes and server
// flags (recorded as its grants, when the account did not hold them already); a rule with `revoke`
// that no longer matches takes back what it granted, and so do rules that were edited or removed
// since (their key is gone). Rights the account held by other means are never taken.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { claimMatches, ruleKey, type ClaimRule } from "../../../core/sso/claim-rules";
import { recordEvent } from "../activity/record";
import { SYSTEM } from "../activity/actor";
import { endSftpSessions } from "../sftp";
import { scopesOf } from "../users/queries";
import { SCOPES } from "../../../core/scopes";
import type { GrantKind } from "../../../core/activity/property-values";

export interface RuleOutcome {
  rule: number;
  matched: boolean;
  grant: ClaimRule["grant"];
}

/**
 * What each rule makes of these claims (the preview, and the first step of a login). An email the
 * provider does not say it verified is not shown to the rules: many providers let an account set
 * any address, and a rule on the domain (`@example\.org$`) would grant rights to whoever typed one.
 */
export function evaluateRules(rules: ClaimRule[], claims: Record<string, unknown>): RuleOutcome[] {
  const seen = claims.email_verified === true ? claims : Object.fromEntries(Object.entries(claims).filter(([name]) => name !== "email"));
  return rules.map((rule, i) => ({ rule: i, matched: claimMatches(rule.match, seen), grant: rule.grant }));
}

export async function applyRules(db: Db, providerId: string, rules: ClaimRule[], userId: number, claims: Record<string, unknown>): Promise<void> {
  const outcomes = evaluateRules(rules, claims);
  const current = new Map(rules.map((rule, i) => [ruleKey(rule), { rule, matched: outcomes[i]!.matched }]));
  let flagTaken = false;
  let before: string[] = [];
  await db.transaction(async (tx) => {
    const t = tx;
    before = await scopesOf(t, userId);
    // Take back first: what a rule that stopped matching (with revoke), or that is gone, granted.
    flagTaken = await takeBack(t, userId, providerId, (key) => {
      const now = current.get(key);
      return !now || (!now.matched && now.rule.revoke);
    });
    for (const [key, { rule, matched }] of current) if (matched) await grantRule(t, userId, providerId, key, rule);
    await recordScopeChange(t, userId, providerId, before);
  });
  await endSftpIfRightsWent(db, userId, flagTaken, before);
}

/**
 * A flag taken back may be one SFTP depends on, and the admin scope (its own, or a role's) lets an
 * administrator on any server: the sessions they let in end, as after a hand-made change.
 */
async function endSftpIfRightsWent(db: Db, userId: number, flagTaken: boolean, scopesBefore: readonly string[]): Promise<void> {
  const adminTaken = scopesBefore.includes(SCOPES.admin) && !(await scopesOf(db, userId)).includes(SCOPES.admin);
  if (flagTaken || adminTaken) await endSftpSessions(db, { userId });
}

/** Whether a grant recorded under a rule key is taken back on withdrawal: its rule's `revoke`, or yes for a rule since removed. */
function revocableBy(rules: ClaimRule[]): (ruleKey: string) => boolean {
  const revocable = new Map(rules.map((rule) => [ruleKey(rule), rule.revoke]));
  return (key) => revocable.get(key) ?? true;
}

/** Whether the account holds a grant of the provider's that withdrawProvider would take back. */
export async function holdsRevocable(db: Db, providerId: string, rules: ClaimRule[], userId: number): Promise<boolean> {
  const revocable = revocableBy(rules);
  const held = await db.select({ rule: schema.ssoGrants.rule }).from(schema.ssoGrants).where(and(eq(schema.ssoGrants.userId, userId), eq(schema.ssoGrants.providerId, providerId))).all();
  return held.some((grant) => revocable(grant.rule));
}

/**
 * Takes back what the provider's revocable rules (and rules since removed) granted the account, as
 * if its claims no longer matched: the provider was unlinked, or refused to refresh the account's
 * claims (the account was disabled or its session revoked there).
 */
export async function withdrawProvider(db: Db, providerId: string, rules: ClaimRule[], userId: number): Promise<void> {
  const revocable = revocableBy(rules);
  let flagTaken = false;
  let before: string[] = [];
  await db.transaction(async (tx) => {
    const t = tx;
    before = await scopesOf(t, userId);
    flagTaken = await takeBack(t, userId, providerId, revocable);
    await recordScopeChange(t, userId, providerId, before);
  });
  await endSftpIfRightsWent(db, userId, flagTaken, before);
}

/** Removes the provider's grants whose rule key `revoked` names, and the rights they stand for unless another grant still holds them; answers whether a flag went. */
async function takeBack(t: Db, userId: number, providerId: string, revoked: (ruleKey: string) => boolean): Promise<boolean> {
  let flagTaken = false;
  const held = await t.select().from(schema.ssoGrants).where(and(eq(schema.ssoGrants.userId, userId), eq(schema.ssoGrants.providerId, providerId))).all();
  for (const grant of held) {
    if (!revoked(grant.rule)) continue;
    await t.delete(schema.ssoGrants).where(and(eq(schema.ssoGrants.userId, userId), eq(schema.ssoGrants.providerId, providerId), eq(schema.ssoGrants.rule, grant.rule), eq(schema.ssoGrants.kind, grant.kind), eq(schema.ssoGrants.value, grant.value), eq(schema.ssoGrants.serverId, grant.serverId))).run();
    // Another rule (of any provider) that still grants the same right keeps it.
    const still = await t.select().from(schema.ssoGrants).where(and(eq(schema.ssoGrants.userId, userId), eq(schema.ssoGrants.kind, grant.kind), eq(schema.ssoGrants.value, grant.value), eq(schema.ssoGrants.serverId, grant.serverId))).get();
    if (still) continue;
    if (grant.kind === "scope") await t.delete(schema.userScopes).where(and(eq(schema.userScopes.userId, userId), eq(schema.userScopes.scope, grant.value))).run();
    else if (grant.kind === "role") await t.delete(schema.userRoles).where(and(eq(schema.userRoles.userId, userId), eq(schema.userRoles.roleId, Number(grant.value)))).run();
    else flagTaken = await setFlag(t, userId, grant.serverId, grant.value, false) || flagTaken;
  }
  return flagTaken;
}

/** Grants what one matching rule names, recording each right the account did not hold already as the rule's. */
async function grantRule(t: Db, userId: number, providerId: string, key: string, rule: ClaimRule): Promise<void> {
  const recorded = async (kind: GrantKind, value: string, serverId = "") =>
    await t.select().from(schema.ssoGrants).where(and(eq(schema.ssoGrants.userId, userId), eq(schema.ssoGrants.providerId, providerId), eq(schema.ssoGrants.rule, key), eq(schema.ssoGrants.kind, kind), eq(schema.ssoGrants.value, value), eq(schema.ssoGrants.serverId, serverId))).get() !== undefined;
  for (const scope of rule.grant.scopes ?? []) {
    if (await recorded("scope", scope)) continue;
    // A scope held before the rule is the account's own: not the rule's to take back later.
    if ((await ownScopes(t, userId)).includes(scope)) continue;
    await t.insert(schema.userScopes).values({ userId, scope }).run();
    await t.insert(schema.ssoGrants).values({ userId, providerId, rule: key, kind: "scope", value: scope }).run();
  }
  for (const name of rule.grant.roles ?? []) {
    const role = await t.select({ id: schema.roles.id }).from(schema.roles).where(eq(schema.roles.name, name)).get();
    if (!role) continue;
    const value = String(role.id);
    if (await recorded("role", value)) continue;
    // A role held before the rule is the account's own.
    if (await t.select().from(schema.userRoles).where(and(eq(schema.userRoles.userId, userId), eq(schema.userRoles.roleId, role.id))).get()) continue;
    await t.insert(schema.userRoles).values({ userId, roleId: role.id }).run();
    await t.insert(schema.ssoGrants).values({ userId, providerId, rule: key, kind: "role", value }).run();
  }
  for (const { serverId, flags } of rule.grant.servers ?? []) {
    if (!await t.select({ id: schema.servers.id }).from(schema.servers).where(eq(schema.servers.id, serverId)).get()) continue;
    for (const flag of flags) {
      if (await recorded("flag", flag, serverId)) continue;
      if (!await setFlag(t, userId, serverId, flag, true)) continue;
      await t.insert(schema.ssoGrants).values({ userId, providerId, rule: key, kind: "flag", value: flag, serverId }).run();
    }
  }
}

async function recordScopeChange(t: Db, userId: number, providerId: string, before: string[]): Promise<void> {
  const after = await scopesOf(t, userId);
  if (after.join() !== before.join()) await recordEvent(t, "user.scopes.changed", { actor: SYSTEM, subject: userId, properties: { old: before, new: after, username: `sso:${providerId}` } });
}

/** The account's own scopes (what a rule adds to and takes from). */
async function ownScopes(db: Db, userId: number): Promise<string[]> {
  return (await db.select({ scope: schema.userScopes.scope }).from(schema.userScopes).where(eq(schema.userScopes.userId, userId)).all()).map((r) => r.scope).sort();
}

/** Adds or removes one flag on the account's server row (made when absent, removed when empty); answers whether anything changed. */
async function setFlag(db: Db, userId: number, serverId: string, flag: string, on: boolean): Promise<boolean> {
  const row = await db.select({ flags: schema.serverUsers.flags }).from(schema.serverUsers).where(and(eq(schema.serverUsers.serverId, serverId), eq(schema.serverUsers.userId, userId))).get();
  const flags = row?.flags ?? [];
  if (flags.includes(flag) === on) return false;
  const next = on ? [...flags, flag] : flags.filter((f) => f !== flag);
  if (!row) await db.insert(schema.serverUsers).values({ serverId, userId, flags: next }).run();
  else if (next.length === 0) await db.delete(schema.serverUsers).where(and(eq(schema.serverUsers.serverId, serverId), eq(schema.serverUsers.userId, userId))).run();
  else await db.update(schema.serverUsers).set({ flags: next }).where(and(eq(schema.serverUsers.serverId, serverId), eq(schema.serverUsers.userId, userId))).run();
  return true;
}
