// Creating an account: username, email and password rules, argon2id hashing, scopes, one transaction.
import { recordEvent } from "../activity/record";
import { eq, or, sql } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { isScope, SCOPES, type Scope } from "../../../core/scopes";
import { hashPassword } from "../auth/credentials";
import { validateEmail, validatePassword, validateUsername } from "../../../core/validation/account";
import { endSftpSessions } from "../sftp/disconnect";
import { releaseUnconfirmed } from "./unconfirmed-hold";

export interface NewUser {
  username: string;
  email: string;
  password: string;
  scopes?: Scope[];
  /** Whether the address is proven its holder's (email-confirmation): true unless the holder typed it themselves. */
  emailConfirmed?: boolean;
  /** The manager making the account (the Users screens, /api/users): the address is confirmed only if they may vouch (mayVouch). */
  by?: { scopes: readonly string[] };
}

/**
 * Whether a manager's word proves an address: an administrator's only. A users.edit holder who
 * vouched made any address (bob@corp.example) confirmed on an account they held the password of,
 * and a confirmed address receives what is shared with it, is offered its sign-in provider's
 * identity, takes the address from an account holding it unconfirmed (Bob's own, waiting for his
 * link) and keeps Bob's provider from making his account. Such a holder's address stays
 * unconfirmed until its mailbox answers (the account's link) or an administrator confirms it.
 */
export const mayVouch = (actor: { scopes: readonly string[] }): boolean => actor.scopes.includes(SCOPES.admin);

/**
 * Where a stored username is `username` in any letter case. A username is one account's whatever
 * its case: "Kiln-Admin" beside "kiln-admin" would pass for the administrator on every screen that
 * lists users. (Usernames are ASCII, so lower() means the same in SQLite and PostgreSQL.)
 */
export const sameUsername = (username: string) => sql`lower(${schema.users.username}) = ${username.toLowerCase()}`;

/** Throws ErrDuplicateUser, naming the field, when another account holds the email or username. */
export async function assertUnique(db: Db, fields: { email?: string; username?: string }, exceptId?: number): Promise<void> {
  const conditions = [];
  if (fields.email) conditions.push(eq(schema.users.email, fields.email));
  if (fields.username) conditions.push(sameUsername(fields.username));
  if (conditions.length === 0) return;
  const clash = (await db.select({ id: schema.users.id, email: schema.users.email }).from(schema.users).where(or(...conditions)).all()).find((r) => r.id !== exceptId);
  if (clash) throw new KilnError("ErrDuplicateUser", { field: fields.email && clash.email === fields.email ? "email" : "username" });
}

export async function createUser(db: Db, input: NewUser): Promise<{ id: number }> {
  const username = validateUsername(input.username);
  const email = validateEmail(input.email);
  validatePassword(input.password);
  const scopes = input.scopes ?? [];
  for (const s of scopes) if (!isScope(s)) throw new KilnError("ErrFieldNotBetween", { field: "scopes" });
  const passwordHash = await hashPassword(input.password);
  const confirmed = input.emailConfirmed ?? (input.by === undefined || mayVouch(input.by));
  const made = await db.transaction(async (tx) => {
    // A vouched-for address is taken from an account that only typed it (unconfirmed-hold).
    const released = confirmed ? await releaseUnconfirmed(tx, email) : null;
    await assertUnique(tx, { email, username });
    const row = await tx
      .insert(schema.users)
      .values({ username, email, passwordHash, createdAt: new Date(), emailConfirmed: confirmed })
      .returning({ id: schema.users.id })
      .get();
    if (scopes.length > 0) await tx.insert(schema.userScopes).values(scopes.map((scope) => ({ userId: row.id, scope }))).run();
    await recordEvent(tx, "user.created", { subject: row.id, properties: { username, email, scopes } });
    return { id: row.id, released };
  });
  if (made.released !== null) await endSftpSessions(db, { userId: made.released });
  return { id: made.id };
}
