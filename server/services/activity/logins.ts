// Logins in the activity log: each success with how (password, a second factor, a passkey), and
// each refusal with the name tried and the catalogue's reason — never the password or code. A
// refusal for an existing account is recorded about it, so its owner sees it on the account page.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { recordEvent } from "./record";
import { SYSTEM, userActor } from "./actor";

export type LoginMethod = "password" | "otp" | "passkey" | "invite" | "register" | "sso";

export async function recordLogin(db: Db, user: { id: number; username: string }, method: LoginMethod): Promise<void> {
  await recordEvent(db, "user.login", { actor: userActor(user), subject: user.id, properties: { method } });
}

/** Runs a login step; a refusal is recorded, then thrown on as it was. */
export async function loginAttempt<T>(db: Db, attempt: { username?: string; userId?: number }, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof KilnError) {
      const name = attempt.username?.slice(0, 200);
      const subject = attempt.userId ?? (name ? (await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, name.toLowerCase())).get())?.id : undefined);
      await recordEvent(db, "user.login.failed", { actor: SYSTEM, subject: subject ?? null, properties: { username: name, reason: error.code } });
    }
    throw error;
  }
}
