// Changes to one's own account (the account screen and PUT /api/self): the current password
// proves the caller is really the account holder, whatever the session says.
import type { Db } from "../../../db";
import { validateEmail, validatePassword } from "../../../core/validation/account";
import { requirePassword } from "../auth/credentials";
import { changeAccount, getUser } from "./manage";
import { scopesOf } from "./queries";
import { countEmailChange } from "./email-change-quota";

/**
 * A new password ends every other login of the account, but not `keepToken` (the one that changed
 * it). A new email is counted first (email-change-quota): its answer tells whether the address has
 * an account.
 */
export async function updateSelf(db: Db, userId: number, body: Record<string, unknown>, keepToken?: string): Promise<void> {
  await requirePassword(db, userId, body.password);
  // The account holder acts on their own account, which holds no scope they lack.
  const self = { id: userId, scopes: await scopesOf(db, userId) };
  if (body.newPassword !== undefined) {
    await changeAccount(db, self, userId, { password: validatePassword(body.newPassword, "newPassword") }, { holderProved: true, keepToken });
    return;
  }
  if (typeof body.email === "string" && body.email !== "" && validateEmail(body.email) !== (await getUser(db, userId)).email) await countEmailChange(db, userId);
  await changeAccount(db, self, userId, { username: body.username, email: body.email }, { holderProved: true });
}
