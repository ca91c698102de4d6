// Changes to one's own account (the account screen and PUT /api/self): the current password
// proves the caller is really the account holder, whatever the session says.
import type { Db } from "../../../db";
import { validateEmail, validatePassword } from "../../../core/validation/account";
import { requirePassword } from "../auth/credentials";
import { changeAccount } from "./manage";
import { scopesOf } from "./queries";
import { countEmailChange } from "./email-change-quota";
import { emailState, sendConfirmation, type ConfirmationMailer } from "./email-confirmation";
import type { EmailChangeNotifier } from "./email-change-notice";

/**
 * A new password ends every other login of the account, but not `keepToken` (the one that changed
 * it). A new email is counted first (email-change-quota). When the panel can mail a confirmation
 * link (`mailer`), the new address only waits for it (email-confirmation) and the current one stays
 * in force: the answer is the same whether another account holds the address. Without, the change
 * is made at once, its clash told as before, and the address is unconfirmed; the previous address
 * is told then (`notify`), or when the link is used (confirmEmail).
 */
export async function updateSelf(db: Db, userId: number, body: Record<string, unknown>, keepToken?: string, mailer: ConfirmationMailer = null, notify: EmailChangeNotifier = null): Promise<void> {
  await requirePassword(db, userId, body.password);
  // The account holder acts on their own account, which holds no scope they lack.
  const self = { id: userId, scopes: await scopesOf(db, userId) };
  if (body.newPassword !== undefined) {
    await changeAccount(db, self, userId, { password: validatePassword(body.newPassword, "newPassword") }, { holderProved: true, keepToken });
    return;
  }
  const email = typeof body.email === "string" && body.email !== "" ? validateEmail(body.email) : undefined;
  const state = await emailState(db, userId);
  // The Account form shows the address waiting in place of a placeholder (a registration's), and
  // sends it back with a new username: that is no new change (its link goes again by its own button).
  const newEmail = email !== undefined && email !== state.email && !(mailer && state.own === "" && email === state.pending);
  if (newEmail) await countEmailChange(db, userId);
  if (mailer) {
    // The link first: refused (too many to this address today), nothing of the form is saved.
    if (newEmail) await sendConfirmation(db, userId, email, mailer);
    await changeAccount(db, self, userId, { username: body.username }, { holderProved: true });
    return;
  }
  await changeAccount(db, self, userId, { username: body.username, email: body.email }, { holderProved: true, notify });
}
