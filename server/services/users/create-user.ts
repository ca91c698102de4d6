// Creating an account: username, email and password rules, argon2id hashing, scopes, one transaction.
import { recordEvent } from "../activity/record";
import { eq, or } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { isScope, type Scope } from "../../../core/scopes";
import { hashPassword } from "../auth/credentials";
import { validateEmail, validatePassword, validateUsername } from "../../../core/validation/account";

export interface NewUser {
  username: string;
  email: string;
  password: string;
  scopes?: Scope[];
}

/** Throws ErrDuplicateUser, naming the field, when another account holds the email or username. */
export async function assertUnique(db: Db, fields: { email?: string; username?: string }, exceptId?: number): Promise<void> {
  const conditions = [];
  if (fields.email) conditions.push(eq(schema.users.email, fields.email));
  if (fields.username) conditions.push(eq(schema.users.username, fields.username));
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
  return await db.transaction(async (tx) => {
    await assertUnique(tx, { email, username });
    const row = await tx
      .insert(schema.users)
      .values({ username, email, passwordHash, createdAt: new Date() })
      .returning({ id: schema.users.id })
      .get();
    if (scopes.length > 0) await tx.insert(schema.userScopes).values(scopes.map((scope) => ({ userId: row.id, scope }))).run();
    await recordEvent(tx, "user.created", { subject: row.id, properties: { username, email, scopes } });
    return { id: row.id };
  });
}
