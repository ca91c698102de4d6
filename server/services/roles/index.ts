// Roles: named sets of panel scopes. The outrank rule that holds for scopes holds for roles: only
// someone holding every scope of a role makes, changes (before and after), deletes, grants or
// takes it away; a role is granted only to an account its granter may manage. An account's scopes
// are its own and its roles' (services/users/queries).
import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { z } from "../../../core/zod";
import { KilnError } from "../../../core/errors";
import { hasScope, isScope, SCOPES, type Scope } from "../../../core/scopes";
import { endSftpSessions } from "../sftp/disconnect";
import { parseWith } from "../../../core/validation/parse";
import { assertMayManage } from "../users/manage";
import { recordEvent } from "../activity/record";
import { assertNotRuleGranted } from "../sso/held-grants";

export interface RoleView {
  id: number;
  name: string;
  scopes: string[];
}

interface Actor {
  id: number;
  scopes: readonly string[];
}

const roleSchema = z.object({ name: z.string().check(z.trim(), z.minLength(1), z.maxLength(60)), scopes: z.array(z.string().check(z.maxLength(64))).check(z.maxLength(30)) });

const view = (row: typeof schema.roles.$inferSelect): RoleView => ({ id: row.id, name: row.name, scopes: JSON.parse(row.scopes) as string[] });

export async function listRoles(db: Db): Promise<RoleView[]> {
  return (await db.select().from(schema.roles).orderBy(asc(schema.roles.name)).all()).map(view);
}

export async function roleView(db: Db, id: number): Promise<RoleView> {
  const row = await db.select().from(schema.roles).where(eq(schema.roles.id, id)).get();
  if (!row) throw new KilnError("ErrNotFound", { id });
  return view(row);
}

export async function rolesOfUser(db: Db, userId: number): Promise<RoleView[]> {
  return (await db.select({ role: schema.roles }).from(schema.userRoles).innerJoin(schema.roles, eq(schema.roles.id, schema.userRoles.roleId)).where(eq(schema.userRoles.userId, userId)).all()).map((r) => view(r.role));
}

/** How many accounts hold each role (the Roles screen). */
export async function holderCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db.select({ roleId: schema.userRoles.roleId, n: count() }).from(schema.userRoles).groupBy(schema.userRoles.roleId).all();
  return new Map(rows.map((r) => [r.roleId, r.n]));
}

/** Whether the actor holds every scope of the role (only then may they change, delete, grant or take it). */
export function outranksRole(actor: Actor, role: RoleView): boolean {
  return role.scopes.every((scope) => hasScope(actor.scopes, scope as Scope));
}

export async function createRole(db: Db, actor: Actor, body: unknown): Promise<RoleView> {
  const input = checkedRole(actor, body);
  await assertNameFree(db, input.name);
  const row = await db.insert(schema.roles).values({ name: input.name, scopes: JSON.stringify(input.scopes), createdAt: Date.now() }).returning().get();
  await recordEvent(db, "role.created", { subject: row.id, properties: { name: row.name, scopes: input.scopes } });
  return view(row);
}

export async function updateRole(db: Db, actor: Actor, id: number, body: unknown): Promise<RoleView> {
  const before = await roleView(db, id);
  assertOutranks(actor, before.scopes);
  const input = checkedRole(actor, body);
  if (input.name !== before.name) await assertNameFree(db, input.name);
  if (JSON.stringify([...input.scopes].sort()) !== JSON.stringify([...before.scopes].sort())) await assertMayManageHolders(db, actor, id);
  const row = (await db.update(schema.roles).set({ name: input.name, scopes: JSON.stringify(input.scopes) }).where(eq(schema.roles.id, id)).returning().get())!;
  await recordEvent(db, "role.changed", { subject: id, properties: { name: row.name, old: before.scopes, new: input.scopes } });
  if (losesAdmin(before.scopes, input.scopes)) await endSftpOf(db, await holdersOf(db, id));
  return view(row);
}

export async function deleteRole(db: Db, actor: Actor, id: number): Promise<void> {
  const before = await roleView(db, id);
  assertOutranks(actor, before.scopes);
  await assertMayManageHolders(db, actor, id);
  const holders = await holdersOf(db, id);
  await db.delete(schema.roles).where(eq(schema.roles.id, id)).run();
  await recordEvent(db, "role.deleted", { subject: id, properties: { name: before.name } });
  if (losesAdmin(before.scopes, [])) await endSftpOf(db, holders);
}

/** Gives the account exactly these roles; every role that changes must be one the actor outranks. */
export async function setUserRoles(db: Db, actor: Actor, userId: number, roleIds: unknown): Promise<RoleView[]> {
  if (!Array.isArray(roleIds) || roleIds.length > 50 || !roleIds.every((id) => Number.isInteger(id) && id > 0)) throw new KilnError("ErrFieldNotBetween", { field: "roles" });
  await assertMayManage(db, actor, userId);
  const wanted = [...new Set(roleIds as number[])];
  const found = wanted.length === 0 ? [] : (await db.select().from(schema.roles).where(inArray(schema.roles.id, wanted)).all()).map(view);
  if (found.length !== wanted.length) throw new KilnError("ErrNotFound", { field: "roles" });
  const current = await rolesOfUser(db, userId);
  const changed = [...found.filter((r) => !current.some((c) => c.id === r.id)), ...current.filter((c) => !wanted.includes(c.id))];
  for (const role of changed) assertOutranks(actor, role.scopes);
  await assertNotRuleGranted(db, userId, "role", changed.map((r) => String(r.id)));
  await db.transaction(async (tx) => {
    await tx.delete(schema.userRoles).where(eq(schema.userRoles.userId, userId)).run();
    if (wanted.length > 0) await tx.insert(schema.userRoles).values(wanted.map((roleId) => ({ userId, roleId }))).run();
    if (changed.length > 0) await recordEvent(tx, "user.roles.changed", { subject: userId, properties: { old: current.map((r) => r.name), new: found.map((r) => r.name) } });
  });
  if (losesAdmin(current.flatMap((r) => r.scopes), found.flatMap((r) => r.scopes))) await endSftpOf(db, [userId]);
  return found;
}

/** Whether a change of scopes takes the admin scope away. */
const losesAdmin = (before: readonly string[], after: readonly string[]) => before.includes(SCOPES.admin) && !after.includes(SCOPES.admin);

/**
 * Changing a role's scopes, or deleting it, changes every holder's rights: each holder must be an
 * account the actor may manage (the outrank rule, as for its own scopes and roles). Else a user
 * editor who may not touch a colleague could demote them, or give them rights, through a role
 * they hold (ErrUserHasMorePermissions).
 */
async function assertMayManageHolders(db: Db, actor: Actor, roleId: number): Promise<void> {
  for (const holder of await holdersOf(db, roleId)) if (holder !== actor.id) await assertMayManage(db, actor, holder);
}

async function holdersOf(db: Db, roleId: number): Promise<number[]> {
  return (await db.select({ userId: schema.userRoles.userId }).from(schema.userRoles).where(eq(schema.userRoles.roleId, roleId)).all()).map((r) => r.userId);
}

/**
 * An administrator may be on any server over SFTP: a role that took the admin scope away ends its
 * holders' SFTP sessions, as taking the scope itself does (services/users' setScopes). Holders who
 * keep it another way log in again.
 */
async function endSftpOf(db: Db, userIds: number[]): Promise<void> {
  for (const userId of userIds) await endSftpSessions(db, { userId });
}

/** Whether the account holds the role now (claim rules use it). */
export async function hasRole(db: Db, userId: number, roleId: number): Promise<boolean> {
  return await db.select().from(schema.userRoles).where(and(eq(schema.userRoles.userId, userId), eq(schema.userRoles.roleId, roleId))).get() !== undefined;
}

function checkedRole(actor: Actor, body: unknown): { name: string; scopes: Scope[] } {
  const input = parseWith(roleSchema, body);
  if (!input.scopes.every(isScope)) throw new KilnError("ErrFieldNotBetween", { field: "scopes" });
  const scopes = [...new Set(input.scopes)].sort() as Scope[];
  assertOutranks(actor, scopes);
  return { name: input.name, scopes };
}

/** Nobody makes or hands out more than they hold themselves. */
function assertOutranks(actor: Actor, scopes: readonly string[]): void {
  for (const scope of scopes) if (!hasScope(actor.scopes, scope as Scope)) throw new KilnError("ErrMissingScope", { scope });
}

async function assertNameFree(db: Db, name: string): Promise<void> {
  if (await db.select({ id: schema.roles.id }).from(schema.roles).where(eq(schema.roles.name, name)).get()) throw new KilnError("ErrFieldNotBetween", { field: "name" }, "a role with this name exists");
}
