// An unconfirmed address does not reserve it. Anyone may register, or type as their own email,
// bob@corp.example; the address is unique, so before this Bob could then neither register with it
// nor be given it by an administrator until that account was deleted. Now a claim that proves the
// address takes it from an account holding it unconfirmed: an administrator making or changing an
// account (they vouch for it), and the confirmation link used (the mailbox answered). The holder's
// address becomes a placeholder nobody can receive mail at, and its own link for that address goes.
// A claim that proves nothing (a registration, a self-chosen change) never takes it: it would let
// the squatter take it back from Bob just as easily.
import { and, eq, isNull, like, lt, or } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { recordEvent } from "../activity/record";

/** The reserved domain (RFC 2606: `.invalid` never resolves) of the placeholders below. */
export const PLACEHOLDER_DOMAIN = "unconfirmed.invalid";

/**
 * An address for an account that holds none of its own yet: unique, unguessable (so nobody can
 * take it first and make the release fail), in lower case (what validateEmail keeps, so the
 * account form sending it back unchanged changes nothing).
 */
export function placeholderAddress(): string {
  return `~${crypto.randomUUID().replaceAll("-", "")}@${PLACEHOLDER_DOMAIN}`;
}

export const isPlaceholderAddress = (email: string): boolean => email.endsWith(`@${PLACEHOLDER_DOMAIN}`);

/** The name an account signs in by with its password (the login form, SFTP): its address, or its username while it holds a placeholder (checkCredentials). */
export const signInName = (account: { email: string; username: string }): string => (isPlaceholderAddress(account.email) ? account.username : account.email);

/** isPlaceholderAddress as a query's condition on the users table. */
export const placeholderWhere = like(schema.users.email, `%@${PLACEHOLDER_DOMAIN}`);

/**
 * Whether an account other than `exceptId` holds `email` without having confirmed it: an active one
 * that typed it, or an invitation whose link has expired. A live invitation's link went to the
 * address, so it keeps it; a dead one proves nothing any more, and nothing else removed it: anyone
 * who may invite (a server user sharing their server) kept bob@corp.example from Bob for good by
 * an invitation he ignored for seven days.
 */
export async function heldUnconfirmed(db: Db, email: string, exceptId?: number, now = Date.now()): Promise<boolean> {
  const holder = await db.select({ id: schema.users.id, status: schema.users.status, confirmed: schema.users.emailConfirmed, inviteExpiresAt: schema.users.inviteExpiresAt }).from(schema.users).where(eq(schema.users.email, email)).get();
  if (holder === undefined || holder.id === exceptId) return false;
  if (holder.status === "invited") return deadInvitation(holder.inviteExpiresAt, now);
  return !holder.confirmed;
}

const deadInvitation = (expiresAt: Date | null, now: number): boolean => expiresAt === null || expiresAt.getTime() < now;

/** deadInvitation as a query's condition on the users table, for a write that must find it still dead. */
export const deadInvitationWhere = (now: number) => and(eq(schema.users.status, "invited"), or(isNull(schema.users.inviteExpiresAt), lt(schema.users.inviteExpiresAt, new Date(now))));

/** An invited account whose link has expired: it proves nothing of its address any more. */
export const isDeadInvitation = (account: { status: string; inviteExpiresAt: Date | null }, now = Date.now()): boolean => account.status === "invited" && deadInvitation(account.inviteExpiresAt, now);

/**
 * Takes `email` from the account other than `exceptId` that holds it unconfirmed (heldUnconfirmed),
 * for a claim that proves it (run it in that claim's transaction); the id of the account released
 * (an active one keeps a placeholder, a dead invitation is removed), or null. A live invitation
 * keeps its address (its link went there), as does a confirmed account.
 * The caller ends the released account's SFTP sessions (their username was the address).
 */
export async function releaseUnconfirmed(tx: Db, email: string, exceptId?: number, now = Date.now()): Promise<number | null> {
  if (!await heldUnconfirmed(tx, email, exceptId, now)) return null;
  // A dead invitation is nobody's account: it goes, with what was shared with it (shared with
  // whoever would answer the invitation, and nobody did).
  const dead = await tx.delete(schema.users).where(and(eq(schema.users.email, email), deadInvitationWhere(now))).returning({ id: schema.users.id, username: schema.users.username }).all();
  if (dead[0]) {
    await recordEvent(tx, "user.deleted", { subject: dead[0].id, properties: { username: dead[0].username } });
    return dead[0].id;
  }
  const placeholder = placeholderAddress();
  const released = await tx
    .update(schema.users)
    .set({ email: placeholder })
    .where(and(eq(schema.users.email, email), eq(schema.users.emailConfirmed, false), eq(schema.users.status, "active")))
    .returning({ id: schema.users.id, username: schema.users.username })
    .all();
  const holder = released[0];
  if (!holder) return null;
  // Its own link for the address would take the address back.
  await tx.delete(schema.emailConfirmations).where(and(eq(schema.emailConfirmations.userId, holder.id), eq(schema.emailConfirmations.email, email))).run();
  await recordEvent(tx, "user.updated", { subject: holder.id, properties: { username: holder.username, email: placeholder, fields: ["email"] } });
  return holder.id;
}
