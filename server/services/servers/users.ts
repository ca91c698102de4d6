// Who has access to one server, and with which flags (the server page's users tab).
import { recordEvent } from "../activity/record";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { normalizeEmail } from "../../../core/validation/email";
import { flagsToPermissions, grantableFlags, holdsAllFlags, type ServerAccess, type ServerPermissions } from "./permissions";
import { endSftpSessions } from "../sftp/disconnect";
import { SFTP_FLAGS } from "../sftp/access";
import { assertNotRuleGranted } from "../sso/held-grants";

export interface ServerUserEntry extends ServerPermissions {
  userId: number;
  email: string;
  /** empty while the person has not accepted their invitation */
  username: string;
  /** whether the address is proven its holder's (users/email-confirmation) */
  emailConfirmed: boolean;
}

export async function listServerUsers(db: Db, serverId: string): Promise<ServerUserEntry[]> {
  return (await db
    .select({ userId: schema.users.id, email: schema.users.email, username: schema.users.username, status: schema.users.status, emailConfirmed: schema.users.emailConfirmed, flags: schema.serverUsers.flags })
    .from(schema.serverUsers)
    .innerJoin(schema.users, eq(schema.users.id, schema.serverUsers.userId))
    .where(eq(schema.serverUsers.serverId, serverId))
    .orderBy(schema.users.email)
    .all())
    .map((r) => ({ userId: r.userId, email: r.email, username: r.status === "invited" ? "" : r.username, emailConfirmed: r.emailConfirmed, ...flagsToPermissions(r.flags) }));
}

async function flagsOf(db: Db, serverId: string, userId: number): Promise<string[] | undefined> {
  return (await db.select({ flags: schema.serverUsers.flags }).from(schema.serverUsers).where(and(eq(schema.serverUsers.serverId, serverId), eq(schema.serverUsers.userId, userId))).get())?.flags;
}

export async function isServerUser(db: Db, serverId: string, userId: number): Promise<boolean> {
  return (await flagsOf(db, serverId, userId)) !== undefined;
}

/**
 * Gives this user exactly the requested flags on the server (the user must exist: see
 * shareServer for invitations), when the caller holds every flag that changes.
 */
export async function putServerUser(db: Db, access: ServerAccess, serverId: string, userId: number, requested: Record<string, unknown>): Promise<void> {
  const before = await flagsOf(db, serverId, userId);
  const flags = grantableFlags(access, before ?? [], requested);
  await assertNotRuleGranted(db, userId, "flag", [...flags.filter((f) => !before?.includes(f)), ...(before ?? []).filter((f) => !(flags as string[]).includes(f))], serverId);
  await db.insert(schema.serverUsers)
    .values({ serverId, userId, flags })
    .onConflictDoUpdate({ target: [schema.serverUsers.serverId, schema.serverUsers.userId], set: { flags } })
    .run();
  const username = (await db.select({ username: schema.users.username }).from(schema.users).where(eq(schema.users.id, userId)).get())?.username;
  if (before === undefined) await recordEvent(db, "server.user.added", { serverId, subject: userId, properties: { username, flags } });
  else if (before.join() !== flags.join()) await recordEvent(db, "server.user.changed", { serverId, subject: userId, properties: { username, old: before, new: flags } });
  // Losing a flag SFTP depends on ends the sessions it let in (a read-write session must not keep writing).
  if (SFTP_FLAGS.some((flag) => before?.includes(flag) && !flags.includes(flag))) await endSftpSessions(db, { userId, serverId });
}

/** Takes the user's access away, when the caller holds every flag the user has there. */
export async function deleteServerUser(db: Db, access: ServerAccess, serverId: string, email: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  const flags = user ? await flagsOf(db, serverId, user.id) : undefined;
  if (!user || !flags) throw new KilnError("ErrUserNotFound", { email });
  if (!holdsAllFlags(access, flags)) throw new KilnError("ErrUserHasMorePermissions");
  await assertNotRuleGranted(db, user.id, "flag", flags, serverId);
  await db.delete(schema.serverUsers).where(and(eq(schema.serverUsers.serverId, serverId), eq(schema.serverUsers.userId, user.id))).run();
  await recordEvent(db, "server.user.removed", { serverId, subject: user.id, properties: { username: email } });
  await endSftpSessions(db, { userId: user.id, serverId });
}

export async function findUserByEmail(db: Db, email: string): Promise<{ id: number; status: "active" | "invited"; emailConfirmed: boolean; inviteExpiresAt: Date | null } | undefined> {
  return await db.select({ id: schema.users.id, status: schema.users.status, emailConfirmed: schema.users.emailConfirmed, inviteExpiresAt: schema.users.inviteExpiresAt }).from(schema.users).where(eq(schema.users.email, normalizeEmail(email))).get();
}

/**
 * An address names its account for a new grant (a share, a server made for it) only when the
 * account confirmed it (users/email-confirmation): otherwise whoever typed bob@corp.example first
 * would receive what is shared with Bob. An invited account is the address's until its emailed link
 * is used, and an account already on the server is changed by account, not found anew.
 * ErrEmailUnconfirmed, nothing granted: the address cannot be invited either (it is taken).
 */
export async function assertGrantableByAddress(db: Db, user: { id: number; status: "active" | "invited"; emailConfirmed: boolean }, email: string, serverId?: string): Promise<void> {
  if (user.status !== "active" || user.emailConfirmed) return;
  if (serverId !== undefined && await isServerUser(db, serverId, user.id)) return;
  throw new KilnError("ErrEmailUnconfirmed", { email: normalizeEmail(email) });
}
