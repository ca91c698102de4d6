// Self-registration: a stranger making an account, when an administrator opened it. Every rule
// is here, so the page and the JSON call refuse alike.
import type { Db } from "../../../db";
import { KilnError } from "../../../core/errors";
import { validateEmail, validatePassword, validatePasswordsMatch, validateUsername } from "../../../core/validation/account";
import { isRegistrationEnabled } from "../settings";
import { ssoMode } from "../sso/mode";
import { createUser } from "./create-user";
import { countRegistration } from "./registration-quota";
import { sendConfirmation, type ConfirmationMailer } from "./email-confirmation";
import { heldUnconfirmed, placeholderAddress } from "./unconfirmed-hold";

export interface Registration {
  username: string;
  email: string;
  password: string;
  passwordConfirm?: string;
}

/**
 * Makes the account (no scopes) for a stranger at `address`; its id. The email is the stranger's
 * word only: unconfirmed, and its link mailed when the panel can (`mailer`). An address another
 * account holds only unconfirmed does not keep Bob out (unconfirmed-hold): with a link to mail, his
 * account is made with a placeholder and the address waits for its link, which takes it from that
 * holder; without, the clash is answered as any other, and an administrator gives Bob the address.
 */
export async function registerAccount(db: Db, input: Registration, address: string, mailer: ConfirmationMailer = null): Promise<number> {
  if (!await isRegistrationEnabled(db)) throw new KilnError("ErrNoPermission", { reason: "registration-disabled" });
  if ((await ssoMode(db)).ssoOnly) throw new KilnError("ErrSsoOnly");
  // A mistyped form costs nothing; anything that reaches the accounts table (a clash included) is counted.
  validateUsername(input.username);
  const email = validateEmail(input.email);
  validatePassword(input.password);
  if (input.passwordConfirm !== undefined) validatePasswordsMatch(input.password, input.passwordConfirm);
  await countRegistration(db, address);
  let id: number;
  try {
    // Self-registered users hold no permissions until an administrator grants them.
    const waits = mailer !== null && await heldUnconfirmed(db, email);
    id = (await createUser(db, { username: input.username, email: waits ? placeholderAddress() : email, password: input.password, scopes: [], emailConfirmed: false })).id;
  } catch (error) {
    // Saying "that email is taken" would tell strangers who has an account here.
    if (error instanceof KilnError && error.code === "ErrDuplicateUser") throw new KilnError("ErrSavingInviteduser");
    throw error;
  }
  if (mailer) {
    try {
      await sendConfirmation(db, id, email, mailer);
    } catch (error) {
      // The account is made either way; its page offers the link again.
      console.warn(`kiln: the confirmation link for account ${id} was not sent: ${error instanceof KilnError ? error.code : String(error)}`);
    }
  }
  return id;
}
