// Reading, changing and removing accounts (the Users screens and /api/users).
import { and, count, eq, like, ne, or } from "drizzle-orm";
import { assertNotBreakGlass } from "../sso/mode";
import { recordEvent } from "../activity/record";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { hasScope, isScope, SCOPES, type Scope } from "../../../core/scopes";
import { validateEmail, validatePassword, validateUsername } from "../../../core/validation/account";
import { assertUnique, mayVouch } from "./create-user";
import { hashPassword } from "../auth/credentials";
import { ownScopesOf, scopesOf } from "./queries";
import { holdsEveryServerGrantOf } from "./server-grants";
import { deleteUserSessions } from "../sessions";
import { endSftpSessions } from "../sftp/disconnect";
import { assertNotRuleGranted } from "../sso/held-grants";
import { dropConfirmation, dropPendingChange } from "./email-confirmation";
import { tellPreviousAddress, type EmailChangeNotifier } from "./email-change-notice";
import { releaseUnconfirmed } from "./unconfirmed-hold";

export interface UserView {
  id: number;
  username: string;
  email: string;
  status: "active" | "invited";
  otpEnabled: boolean;
  /** whether the address is proven its holder's (email-confirmation); beside PufferPanel's fields */
  emailConfirmed: boolean;
}

const columns = {
  id: schema.users.id,
  username: schema.users.username,
  email: schema.users.email,
  status: schema.users.status,
  otpEnabled: schema.users.otpEnabled,
  emailConfirmed: schema.users.emailConfirmed,
};

/** Invited accounts show their email until they choose a username. */
function present(row: UserView): UserView {
  return row.status === "invited" ? { ...row, username: "" } : row;
}

export async function getUser(db: Db, id: number): Promise<UserView> {
  const row = await db.select(columns).from(schema.users).where(eq(schema.users.id, id)).get();
  if (!row) throw new KilnError("ErrUserNotFound");
  return present(row);
}

/** `search` uses * as a wildcard (as in ?username=*text*). */
export async function listUsers(db: Db, page: number, limit: number, search?: string): Promise<{ users: UserView[]; total: number }> {
  const where = search ? or(like(schema.users.username, search.replaceAll("*", "%")), like(schema.users.email, search.replaceAll("*", "%"))) : undefined;
  const total = (await db.select({ n: count() }).from(schema.users).where(where).get())?.n ?? 0;
  const users = (await db
    .select(columns)
    .from(schema.users)
    .where(where)
    .orderBy(schema.users.id)
    .limit(limit)
    .offset((page - 1) * limit)
    .all())
    .map(present);
  return { users, total };
}

/** Who is acting on an account: their id and panel-wide scopes. */
export interface Actor {
  id: number;
  scopes: readonly string[];
}

/**
 * The one rule for changing or deleting an account: the actor must hold every scope the account
 * holds (an administrator holds all), so administrators are touched only by administrators and
 * nobody reaches an account with more power than their own.
 */
export function mayManageAccount(actorScopes: readonly string[], targetScopes: readonly string[]): boolean {
  return actorScopes.includes(SCOPES.admin) || targetScopes.every((scope) => actorScopes.includes(scope));
}

/** The account and its scopes, when the actor may manage it (else ErrUserNotFound or ErrUserHasMorePermissions). */
export async function assertMayManage(db: Db, actor: Actor, id: number): Promise<{ account: UserView; scopes: string[] }> {
  const account = await getUser(db, id);
  const scopes = await scopesOf(db, id);
  if (!await mayManage(db, actor, id, scopes)) throw new KilnError("ErrUserHasMorePermissions");
  return { account, scopes };
}

/** The whole rule: panel scopes, and for non-administrators the target's flags on every server too. */
export async function mayManage(db: Db, actor: Actor, id: number, given?: readonly string[]): Promise<boolean> {
  const targetScopes = given ?? (await scopesOf(db, id));
  if (!mayManageAccount(actor.scopes, targetScopes)) return false;
  return actor.scopes.includes(SCOPES.admin) || await holdsEveryServerGrantOf(db, actor.id, id);
}

type AccountChange = { username?: unknown; email?: unknown; password?: unknown };

/**
 * A manager's change of an account's username, email or password (users.edit). Not of their own
 * email or password: those change with the current password (updateSelf), or a stolen session
 * would take the account from its holder.
 */
export async function updateUser(db: Db, actor: Actor, id: number, input: AccountChange, notify: EmailChangeNotifier = null): Promise<void> {
  await changeAccount(db, actor, id, input, { holderProved: false, notify });
}

/**
 * Changes username, email or password. A new password ends the account's logins, except
 * `keepToken` (the one that changed it). updateSelf passes the account holder as the actor, once
 * they gave their current password (`holderProved`). A new address takes effect at once: the
 * previous one is told (`notify`, email-change-notice), and a manager's address is taken from an
 * account that holds it unconfirmed (unconfirmed-hold).
 */
export async function changeAccount(db: Db, actor: Actor, id: number, input: AccountChange, proof: { holderProved: boolean; keepToken?: string; notify?: EmailChangeNotifier }): Promise<void> {
  const current = (await assertMayManage(db, actor, id)).account;
  const set: Partial<typeof schema.users.$inferInsert> = {};
  if (input.username !== undefined && input.username !== "" && current.status === "active") set.username = validateUsername(input.username);
  if (input.email !== undefined && input.email !== "") set.email = validateEmail(input.email);
  const newPassword = input.password !== undefined && input.password !== "";
  if (actor.id === id && !proof.holderProved && (newPassword || (set.email !== undefined && set.email !== current.email))) throw new KilnError("ErrNoPermission", { reason: "your own email and password change on your account page, with your current password" });
  if (newPassword) set.passwordHash = await hashPassword(validatePassword(input.password));
  const newEmail = set.email !== undefined && set.email !== current.email;
  // An administrator's address is one they vouch for (mayVouch); a users.edit holder's, and the
  // holder's own (updateSelf, when no confirmation link can be mailed), are unproven until the
  // mailbox answers or an administrator confirms it.
  if (newEmail) set.emailConfirmed = !proof.holderProved && mayVouch(actor);
  const released = await db.transaction(async (tx) => {
    const taken = newEmail && set.emailConfirmed ? await releaseUnconfirmed(tx, set.email!, id) : null;
    await assertUnique(tx, { email: set.email, username: set.username }, id);
    if (Object.keys(set).length > 0) await tx.update(schema.users).set(set).where(eq(schema.users.id, id)).run();
    // A new password is how a holder (or their manager) takes the account back from a thief: the
    // thief's pending email change ends with their sessions.
    if (set.passwordHash) await dropPendingChange(tx, id);
    return taken;
  });
  if (Object.keys(set).length === 0) return;
  if (released !== null) await endSftpSessions(db, { userId: released });
  if (newEmail) await dropConfirmation(db, id);
  const fields = [set.username && "username", set.email && "email"].filter((f): f is string => Boolean(f));
  if (fields.length > 0) await recordEvent(db, "user.updated", { subject: id, properties: { username: set.username ?? current.username, email: set.email ?? current.email, fields } });
  if (set.passwordHash) await recordEvent(db, "user.password.changed", { subject: id, properties: { username: set.username ?? current.username } });
  if (set.passwordHash) await deleteUserSessions(db, id, proof.keepToken);
  // SFTP sessions logged in with the old password, or under the old email (it is their username).
  if (set.passwordHash || (set.email && set.email !== current.email)) await endSftpSessions(db, { userId: id });
  // Last: everything the change ends has ended before a slow mail server is waited for.
  if (newEmail) await tellPreviousAddress(proof.notify ?? null, { username: set.username ?? current.username, previous: current.email, previousConfirmed: current.emailConfirmed, next: set.email! });
}

export async function deleteUser(db: Db, actor: Actor, id: number): Promise<void> {
  if (id === actor.id) throw new KilnError("ErrNoPermission", { reason: "self" });
  await assertMayManage(db, actor, id);
  const { username } = await getUser(db, id);
  // Checked in the transaction that deletes (serializable): two administrators deleting each other
  // at once, through two panels, cannot both pass it.
  await db.transaction(async () => {
    if (await isLastAdmin(db, id)) throw new KilnError("ErrLastAdmin");
    await assertNotBreakGlass(db, id);
    await db.delete(schema.users).where(eq(schema.users.id, id)).run();
    await recordEvent(db, "user.deleted", { subject: id, properties: { username } });
  });
  await endSftpSessions(db, { userId: id });
}

/**
 * True when this account is an administrator and no other active one exists. Invited
 * administrators do not count: an invitation can expire, and then nobody could log in as admin.
 */
async function isLastAdmin(db: Db, id: number): Promise<boolean> {
  if (!(await ownScopesOf(db, id)).includes(SCOPES.admin)) return false;
  const others = await db
    .select({ n: count() })
    .from(schema.userScopes)
    .innerJoin(schema.users, eq(schema.users.id, schema.userScopes.userId))
    .where(and(eq(schema.userScopes.scope, SCOPES.admin), ne(schema.userScopes.userId, id), eq(schema.users.status, "active")))
    .get();
  return (others?.n ?? 0) === 0;
}

/**
 * Replaces a user's scopes. The actor must be allowed to manage the account, and may only add or
 * remove scopes they hold themselves (admin holds all): so nobody raises their own scopes. The
 * last administrator cannot lose the admin scope.
 */
export async function setScopes(db: Db, actor: Actor, id: number, requested: unknown): Promise<string[]> {
  if (!Array.isArray(requested) || !requested.every((s) => typeof s === "string" && isScope(s))) {
    throw new KilnError("ErrFieldNotBetween", { field: "scopes" });
  }
  await assertMayManage(db, actor, id);
  // The account's own scopes change; those of its roles stay its roles'.
  const current = await ownScopesOf(db, id);
  const next = [...new Set(requested as string[])].sort();
  const changed = [...next.filter((s) => !current.includes(s)), ...current.filter((s) => !next.includes(s))];
  for (const scope of changed) {
    if (!hasScope(actor.scopes, scope as Scope)) throw new KilnError("ErrMissingScope", { scope });
  }
  await assertNotRuleGranted(db, id, "scope", changed);
  await db.transaction(async (tx) => {
    // In the transaction that writes (serializable): two administrators demoting each other at
    // once, through two panels, cannot both pass it.
    if (current.includes(SCOPES.admin) && !next.includes(SCOPES.admin)) {
      if (await isLastAdmin(tx, id)) throw new KilnError("ErrLastAdmin");
      await assertNotBreakGlass(tx, id);
    }
    await tx.delete(schema.userScopes).where(eq(schema.userScopes.userId, id)).run();
    if (next.length > 0) await tx.insert(schema.userScopes).values(next.map((scope) => ({ userId: id, scope }))).run();
    if (changed.length > 0) await recordEvent(tx, "user.scopes.changed", { subject: id, properties: { username: (await getUser(tx, id)).username, old: current, new: next } });
  });
  // An admin may have been on any server over SFTP; those without the flag must go.
  if (current.includes(SCOPES.admin) && !next.includes(SCOPES.admin)) await endSftpSessions(db, { userId: id });
  return next;
}
