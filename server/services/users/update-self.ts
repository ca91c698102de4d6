// Changes to one's own account (the account screen and PUT /api/self): the current password
// proves the caller is really the account holder, whatever the session says.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { validatePassword } from "../../../core/validation/account";
import { verifyPassword } from "../auth/credentials";
import { updateUser } from "./manage";
import { scopesOf } from "./queries";

/** A new password ends every other login of the account, but not `keepToken` (the one that changed it). */
export async function updateSelf(db: Db, userId: number, body: Record<string, unknown>, keepToken?: string): Promise<void> {
  const row = await db.select({ passwordHash: schema.users.passwordHash }).from(schema.users).where(eq(schema.users.id, userId)).get();
  if (typeof body.password !== "string" || body.password === "") throw new KilnError("ErrFieldRequired", { field: "password" });
  if (!(await verifyPassword(body.password, row?.passwordHash))) throw new KilnError("ErrInvalidCredentials");
  // The account holder acts on their own account, which holds no scope they lack.
  const self = { id: userId, scopes: await scopesOf(db, userId) };
  if (body.newPassword !== undefined) {
    await updateUser(db, self, userId, { password: validatePassword(body.newPassword, "newPassword") }, keepToken);
    return;
  }
  await updateUser(db, self, userId, { username: body.username, email: body.email });
}
