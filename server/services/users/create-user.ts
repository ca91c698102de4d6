// Creating an account: validation of section 5, argon2id hashing, scopes, one transaction.
import { eq, or } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { ALL_SCOPES, type Scope } from "../../../core/scopes";
import { validateEmail, validatePassword, validateUsername } from "../../../core/validation/account";

export interface NewUser {
  username: string;
  email: string;
  password: string;
  scopes?: Scope[];
}

export async function createUser(db: Db, input: NewUser): Promise<{ id: number }> {
  const username = validateUsername(input.username);
  const email = validateEmail(input.email);
  validatePassword(input.password);
  const scopes = input.scopes ?? [];
  for (const s of scopes) if (!ALL_SCOPES.includes(s)) throw new KilnError("ErrFieldRequired", { field: "scopes" });

  const passwordHash = await Bun.password.hash(input.password, { algorithm: "argon2id" });
  return db.transaction((tx) => {
    const clash = tx
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(or(eq(schema.users.email, email), eq(schema.users.username, username)))
      .get();
    // Spec section 8 has no dedicated code for a taken account; the generic message reveals nothing.
    if (clash) throw new KilnError("ErrFieldEqual", { field1: "email", field2: "username" }, "user already exists");
    const row = tx
      .insert(schema.users)
      .values({ username, email, passwordHash, createdAt: new Date() })
      .returning({ id: schema.users.id })
      .get();
    if (scopes.length > 0) tx.insert(schema.userScopes).values(scopes.map((scope) => ({ userId: row.id, scope }))).run();
    return { id: row.id };
  });
}
