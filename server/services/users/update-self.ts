// Changes to one's own account (the account screen and PUT /api/self): the current password
// proves the caller is really the account holder, whatever the session says.
import type { Db } from "../../../db";
import { validatePassword } from "../../../core/validation/account";
import { requirePassword } from "../auth/credentials";
import { changeAccount } from "./manage";
import { scopesOf } from "./queries";

/** A new password ends every other login of the account, but not `keepToken` (the one that changed it). */
export async function updateSelf(db: Db, userId: number, body: Record<string, unknown>, keepToken?: string): Promise<void> {
  await requirePassword(db, userId, body.password);
  // The account holder acts on their own account, which holds no scope they lack.
  const self = { id: userId, scopes: await scopesOf(db, userId) };
  if (body.newPassword !== undefined) {
    await changeAccount(db, self, userId, { password: validatePassword(body.newPassword, "newPassword") }, { holderProved: true, keepToken });
    return;
  }
  await changeAccount(db, self, userId, { username: body.username, email: body.email }, { holderProved: true });
}
