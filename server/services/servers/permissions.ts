// Who may do what on one server: admins hold every flag; everyone else holds the
// flags of their server_users row. An OAuth2 client bound to a server reaches only that server,
// with its owner's flags there.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { prepared } from "../../../db/prepared";
import { KilnError } from "../../../core/errors";
import { SCOPES, SERVER_FLAGS, type ServerFlag } from "../../../core/scopes";
import { allows, flagsToPermissions, permissionsToFlags, type ServerAccess, type ServerRequirement } from "../../../core/scopes/server-access";
import type { SessionUser } from "../sessions";
import { scopesOf } from "../users";

export { allows, flagsToPermissions, permissionsToFlags, type ServerAccess, type ServerPermissions } from "../../../core/scopes/server-access";
/** What a check needs: a flag, "admin", or merely seeing the server. */
export type Requirement = ServerRequirement;

/** Admin of the panel: for a server-bound client, the owner's admin scope counts on that server only. */
export async function isAdminUser(db: Db, user: SessionUser): Promise<boolean> {
  const scopes = user.serverId ? await scopesOf(db, user.id) : user.scopes;
  return scopes.includes(SCOPES.admin);
}

// Asked on every server route and for every row of a list: prepared once per database.
const flagsRead = (db: Db) =>
  db
    .select({ flags: schema.serverUsers.flags })
    .from(schema.serverUsers)
    .where(and(eq(schema.serverUsers.serverId, sql.placeholder("serverId")), eq(schema.serverUsers.userId, sql.placeholder("userId"))))
    .prepare();
const serverExists = (db: Db) => db.select({ id: schema.servers.id }).from(schema.servers).where(eq(schema.servers.id, sql.placeholder("serverId"))).prepare();

export async function serverAccess(db: Db, user: SessionUser, serverId: string): Promise<ServerAccess> {
  if (user.serverId && user.serverId !== serverId) return { view: false, admin: false, permissions: flagsToPermissions([]) };
  if (await isAdminUser(db, user)) return { view: true, admin: true, permissions: flagsToPermissions([], true) };
  const row = await prepared(db, flagsRead).get({ serverId, userId: user.id });
  return { view: row !== undefined, admin: false, permissions: flagsToPermissions(row?.flags ?? []) };
}

/** Past this many servers, serverAccesses reads the caller's rows in several statements (engines bound their parameters). */
const IDS_PER_READ = 500;

/** serverAccess for each of `ids` (a list's rows): one read of the caller's rows, not one per server. */
export async function serverAccesses(db: Db, user: SessionUser, ids: readonly string[]): Promise<Map<string, ServerAccess>> {
  const none: ServerAccess = { view: false, admin: false, permissions: flagsToPermissions([]) };
  const reachable = ids.filter((id) => !user.serverId || user.serverId === id);
  const accesses = new Map<string, ServerAccess>(ids.map((id) => [id, none]));
  if (reachable.length === 0) return accesses;
  if (await isAdminUser(db, user)) {
    const all: ServerAccess = { view: true, admin: true, permissions: flagsToPermissions([], true) };
    for (const id of reachable) accesses.set(id, all);
    return accesses;
  }
  for (let i = 0; i < reachable.length; i += IDS_PER_READ) {
    const rows = await db
      .select({ serverId: schema.serverUsers.serverId, flags: schema.serverUsers.flags })
      .from(schema.serverUsers)
      .where(and(eq(schema.serverUsers.userId, user.id), inArray(schema.serverUsers.serverId, reachable.slice(i, i + IDS_PER_READ))))
      .all();
    for (const row of rows) accesses.set(row.serverId, { view: true, admin: false, permissions: flagsToPermissions(row.flags) });
  }
  return accesses;
}

// The owner is the user of the server's first row (the panel keeps no owner column; ./search lists it so).
const ownerRead = (db: Db) =>
  db
    .select({ userId: schema.serverUsers.userId })
    .from(schema.serverUsers)
    .where(eq(schema.serverUsers.serverId, sql.placeholder("serverId")))
    .orderBy(schema.serverUsers.addedAt, schema.serverUsers.userId)
    .limit(1)
    .prepare();

/** The id of the server's owner; null when it has no users (or does not exist). */
export async function serverOwnerId(db: Db, serverId: string): Promise<number | null> {
  return (await prepared(db, ownerRead).get({ serverId }))?.userId ?? null;
}

/**
 * Whether the caller is the server's owner or an administrator: the node keeps places of some
 * kinds for them (core/contract's keptForOwners), so its co-users together never hold them all.
 */
export async function speaksForOwners(db: Db, user: SessionUser, access: ServerAccess, serverId: string): Promise<boolean> {
  if (access.admin) return true;
  if (!access.view) return false;
  return (await serverOwnerId(db, serverId)) === user.id;
}

/** Throws ErrNoPermission unless the caller passes the check. */
export function assertAllowed(access: ServerAccess, needs: Requirement): void {
  if (!allows(access, needs)) throw new KilnError("ErrNoPermission", { permission: needs });
}

/** The caller's access to an existing server, after checking they pass `needs` (ErrNotFound, ErrNoPermission). */
export async function authorize(db: Db, user: SessionUser, serverId: string, needs: Requirement): Promise<ServerAccess> {
  if (!await prepared(db, serverExists).get({ serverId })) throw new KilnError("ErrNotFound", { id: serverId }, "no such server");
  const access = await serverAccess(db, user, serverId);
  assertAllowed(access, needs);
  return access;
}

/**
 * The one rule for server users: nobody gives or takes away a flag they do not hold. Returns the
 * flags asked for when every flag that changes from `current` is one the caller holds (an admin
 * holds all); a flag the caller lacks may stay as it is. Else ErrNoPermission names the flags.
 */
export function grantableFlags(access: ServerAccess, current: readonly string[], requested: Record<string, unknown>): ServerFlag[] {
  const next = permissionsToFlags(requested);
  const changed = SERVER_FLAGS.filter((f) => next.includes(f) !== current.includes(f));
  const beyond = changed.filter((f) => !access.permissions[f]);
  if (beyond.length > 0) throw new KilnError("ErrNoPermission", { permission: beyond.join(", ") });
  return next;
}

/** True when the caller holds every flag of `flags`: only then may they remove that user from the server. */
export function holdsAllFlags(access: ServerAccess, flags: readonly string[]): boolean {
  return SERVER_FLAGS.every((f) => !flags.includes(f) || access.permissions[f]);
}
