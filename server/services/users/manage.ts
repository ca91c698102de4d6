// Reading, changing and removing accounts (the Users screens and /api/users).
import { and, count, eq, like, ne, or } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { isScope, SCOPES } from "../../../core/scopes";
import { validateEmail, validatePassword, validateUsername } from "../../../core/validation/account";
import { assertUnique, hashPassword } from "./create-user";
import { scopesOf } from "./queries";
import { deleteUserSessions } from "../sessions";
import { endSftpSessions } from "../sftp/disconnect";

export interface UserView {
  id: number;
  username: string;
  email: string;
  status: "active" | "invited";
  otpEnabled: boolean;
}

const columns = {
  id: schema.users.id,
  username: schema.users.username,
  email: schema.users.email,
  status: schema.users.status,
  otpEnabled: schema.users.otpEnabled,
};

/** Invited accounts show their email until they choose a username. */
function present(row: UserView): UserView {
  return row.status === "invited" ? { ...row, username: "" } : row;
}

export function getUser(db: Db, id: number): UserView {
  const row = db.select(columns).from(schema.users).where(eq(schema.users.id, id)).get();
  if (!row) throw new KilnError("ErrUserNotFound");
  return present(row);
}

/** `search` uses * as a wildcard (spec: ?username=*text*). */
export function listUsers(db: Db, page: number, limit: number, search?: string): { users: UserView[]; total: number } {
  const where = search ? or(like(schema.users.username, search.replaceAll("*", "%")), like(schema.users.email, search.replaceAll("*", "%"))) : undefined;
  const total = db.select({ n: count() }).from(schema.users).where(where).get()?.n ?? 0;
  const users = db
    .select(columns)
    .from(schema.users)
    .where(where)
    .orderBy(schema.users.id)
    .limit(limit)
    .offset((page - 1) * limit)
    .all()
    .map(present);
  return { users, total };
}

/** A new password ends the account's logins, except `keepToken` (the one that changed it). */
export async function updateUser(db: Db, id: number, input: { username?: unknown; email?: unknown; password?: unknown }, keepToken?: string): Promise<void> {
  const current = getUser(db, id);
  const set: Partial<typeof schema.users.$inferInsert> = {};
  if (input.username !== undefined && input.username !== "" && current.status === "active") set.username = validateUsername(input.username);
  if (input.email !== undefined && input.email !== "") set.email = validateEmail(input.email);
  if (input.password !== undefined && input.password !== "") set.passwordHash = await hashPassword(validatePassword(input.password));
  assertUnique(db, { email: set.email, username: set.username }, id);
  if (Object.keys(set).length === 0) return;
  db.update(schema.users).set(set).where(eq(schema.users.id, id)).run();
  if (set.passwordHash) deleteUserSessions(db, id, keepToken);
  // SFTP sessions logged in with the old password, or under the old email (it is their username).
  if (set.passwordHash || (set.email && set.email !== current.email)) endSftpSessions(db, { userId: id });
}

export function deleteUser(db: Db, id: number, actorId: number): void {
  getUser(db, id);
  if (id === actorId) throw new KilnError("ErrNoPermission", { reason: "self" });
  if (isLastAdmin(db, id)) throw new KilnError("ErrNoPermission", { reason: "last-admin" });
  db.delete(schema.users).where(eq(schema.users.id, id)).run();
  endSftpSessions(db, { userId: id });
}

function isLastAdmin(db: Db, id: number): boolean {
  if (!scopesOf(db, id).includes(SCOPES.admin)) return false;
  const others = db
    .select({ n: count() })
    .from(schema.userScopes)
    .where(and(eq(schema.userScopes.scope, SCOPES.admin), ne(schema.userScopes.userId, id)))
    .get();
  return (others?.n ?? 0) === 0;
}

/**
 * Replaces a user's scopes. The actor may only add or remove scopes they hold themselves (admin
 * holds all), and the last administrator cannot lose the admin scope.
 */
export function setScopes(db: Db, id: number, requested: unknown, actorScopes: readonly string[]): string[] {
  if (!Array.isArray(requested) || !requested.every((s) => typeof s === "string" && isScope(s))) {
    throw new KilnError("ErrFieldNotBetween", { field: "scopes" });
  }
  getUser(db, id);
  const next = [...new Set(requested as string[])].sort();
  const current = scopesOf(db, id);
  const actorIsAdmin = actorScopes.includes(SCOPES.admin);
  const changed = [...next.filter((s) => !current.includes(s)), ...current.filter((s) => !next.includes(s))];
  for (const scope of changed) {
    if (!actorIsAdmin && !actorScopes.includes(scope)) throw new KilnError("ErrMissingScope", { scope });
  }
  if (current.includes(SCOPES.admin) && !next.includes(SCOPES.admin) && isLastAdmin(db, id)) {
    throw new KilnError("ErrNoPermission", { reason: "last-admin" });
  }
  db.transaction((tx) => {
    tx.delete(schema.userScopes).where(eq(schema.userScopes.userId, id)).run();
    if (next.length > 0) tx.insert(schema.userScopes).values(next.map((scope) => ({ userId: id, scope }))).run();
  });
  // An admin may have been on any server over SFTP; those without the flag must go.
  if (current.includes(SCOPES.admin) && !next.includes(SCOPES.admin)) endSftpSessions(db, { userId: id });
  return next;
}
