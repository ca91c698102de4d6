// Invitations: an account that exists by email only until the invitee picks a username and a
// password through the link. Works whether self-registration is on or off.
import { and, eq, gte } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { validateEmail, validatePassword, validatePasswordsMatch, validateUsername } from "../../../core/validation/account";
import { hashToken, randomToken } from "../sessions";
import { assertUnique, mayVouch } from "./create-user";
import { hashPassword } from "../auth/credentials";
import { assertMayManage, type Actor } from "./manage";
import { deadInvitationWhere } from "./unconfirmed-hold";

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Creates the invited account (or renews the link of one still invited); returns the link token.
 * Renewing hands out a way into that account, so it follows the rule for changing accounts, but
 * for an invitation whose link has expired when the new link goes to the address alone
 * (`linkMailedOnly`: the caller never sees it): whoever shares a server with the address again
 * then reaches its owner, and what was shared with the invitation reaches them too, as its sharers
 * meant. A caller who gets the link back could answer it themselves, so they must be able to manage it.
 * A link mailed only is never renewed while live (token null: nothing to mail), as the address
 * holds one already: renewals asked for together all read it expired, and each mailed the address.
 * The row's emailConfirmed says whether its link proves the address (acceptInvite): a link the
 * address alone receives does, as does one handed back to an administrator (mayVouch); one handed
 * back to a users.edit holder does not, or he answered it himself with a password of his own and
 * held bob@corp.example confirmed, receiving what is shared with Bob.
 */
export async function inviteUser(db: Db, actor: Actor, emailInput: string, now: number, linkMailedOnly: true): Promise<{ id: number; token: string | null; created: boolean }>;
export async function inviteUser(db: Db, actor: Actor, emailInput: string, now?: number, linkMailedOnly?: false): Promise<{ id: number; token: string; created: boolean }>;
export async function inviteUser(db: Db, actor: Actor, emailInput: string, now?: number, linkMailedOnly?: boolean): Promise<{ id: number; token: string | null; created: boolean }>;
export async function inviteUser(db: Db, actor: Actor, emailInput: string, now = Date.now(), linkMailedOnly = false): Promise<{ id: number; token: string | null; created: boolean }> {
  const email = validateEmail(emailInput);
  const token = randomToken();
  const values = { inviteTokenHash: hashToken(token), inviteExpiresAt: new Date(now + INVITE_TTL_MS), emailConfirmed: linkMailedOnly || mayVouch(actor) };
  const existing = await db.select().from(schema.users).where(eq(schema.users.email, email)).get();
  if (existing) {
    if (existing.status !== "invited") throw new KilnError("ErrDuplicateUser");
    if (linkMailedOnly) {
      // Renewed only if still expired, in this one write: one renewal of those asked together wins.
      const renewed = await db.update(schema.users).set(values).where(and(eq(schema.users.id, existing.id), deadInvitationWhere(now))).returning({ id: schema.users.id }).all();
      return { id: existing.id, token: renewed.length === 1 ? token : null, created: false };
    }
    await assertMayManage(db, actor, existing.id);
    await db.update(schema.users).set(values).where(eq(schema.users.id, existing.id)).run();
    return { id: existing.id, token, created: false };
  }
  // A placeholder username nobody can choose (usernames allow no "~"), replaced on acceptance.
  const row = await db
    .insert(schema.users)
    .values({ username: `~invited-${token.slice(0, 12)}`, email, passwordHash: "", status: "invited", createdAt: new Date(now), ...values })
    .returning({ id: schema.users.id })
    .get();
  return { id: row.id, token, created: true };
}

/** Removes an invited account again (its invitation could not be delivered); active accounts are never touched. */
export async function withdrawInvite(db: Db, id: number): Promise<void> {
  await db.delete(schema.users).where(and(eq(schema.users.id, id), eq(schema.users.status, "invited"))).run();
}

export async function findInvite(db: Db, token: unknown, now = Date.now()): Promise<{ id: number; email: string }> {
  if (typeof token !== "string" || token === "") throw new KilnError("ErrInviteLinkInvalid");
  const row = await db.select().from(schema.users).where(eq(schema.users.inviteTokenHash, hashToken(token))).get();
  if (!row || row.status !== "invited" || !row.inviteExpiresAt || row.inviteExpiresAt.getTime() < now) throw new KilnError("ErrInviteLinkInvalid");
  return { id: row.id, email: row.email };
}

export async function acceptInvite(db: Db, input: { token: unknown; username: unknown; password: unknown; passwordConfirm?: unknown }, now = Date.now()): Promise<number> {
  const invite = await findInvite(db, input.token, now);
  const username = validateUsername(input.username);
  const password = validatePassword(input.password);
  if (input.passwordConfirm !== undefined) validatePasswordsMatch(password, String(input.passwordConfirm));
  await assertUnique(db, { username }, invite.id);
  const passwordHash = await hashPassword(password);
  // The address is confirmed if the link went to it alone or to an administrator who vouches for
  // it; the row says which (inviteUser), and its last renewal decides, as only its link works.
  // Others may have accepted the same link while the password was hashed: the account is taken
  // only if it is still invited under this very link, in one synchronous step (nothing else runs
  // between the check and the write), so exactly one acceptance wins and the others change nothing.
  return await db.transaction(async () => {
    await assertUnique(db, { username }, invite.id);
    const taken = await db
      .update(schema.users)
      .set({ username, passwordHash, status: "active", inviteTokenHash: null, inviteExpiresAt: null })
      .where(and(eq(schema.users.id, invite.id), eq(schema.users.status, "invited"), eq(schema.users.inviteTokenHash, hashToken(input.token as string)), gte(schema.users.inviteExpiresAt, new Date(now))))
      .returning({ id: schema.users.id })
      .all();
    if (taken.length !== 1) throw new KilnError("ErrInviteLinkInvalid");
    return invite.id;
  });
}
