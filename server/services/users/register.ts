// Self-registration: a stranger making an account, when an administrator opened it. Every rule
// is here, so the page and the JSON call refuse alike.
import type { Db } from "../../../db";
import { KilnError } from "../../../core/errors";
import { validateEmail, validatePassword, validatePasswordsMatch, validateUsername } from "../../../core/validation/account";
import { isRegistrationEnabled } from "../settings";
import { ssoMode } from "../sso/mode";
import { createUser } from "./create-user";
import { countRegistration } from "./registration-quota";
import { sendConfirmation, storeLink, type ConfirmationMailer } from "./email-confirmation";
import { placeholderAddress } from "./unconfirmed-hold";

export interface Registration {
  username: string;
  email: string;
  password: string;
  passwordConfirm?: string;
}

/**
 * Makes the account (no scopes) for a stranger at `address`; its id. The email is the stranger's
 * word only. With a link to mail (`mailer`), every registration holds its address as pending, as
 * an email change does: the account is made with a placeholder (unconfirmed-hold) and the typed
 * address waits for its link, whoever holds it. Made with the typed address when it was free and
 * with a placeholder when it was held, the new account's own pages (its address, the notices naming
 * it) told the stranger which addresses were taken. Only an address free or held unconfirmed is
 * mailed (sendConfirmation), so a confirmed or invited holder's link is stored and never used. Until
 * the link is used the account signs in by its username (checkCredentials).
 * Without a link to mail, the typed address is taken at once, unconfirmed, and a clash is answered
 * as any other (an administrator gives Bob an address held unconfirmed).
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
    id = (await createUser(db, { username: input.username, email: mailer !== null ? placeholderAddress() : email, password: input.password, scopes: [], emailConfirmed: false })).id;
  } catch (error) {
    // Saying "that email is taken" would tell strangers who has an account here.
    if (error instanceof KilnError && error.code === "ErrDuplicateUser") throw new KilnError("ErrSavingInviteduser");
    throw error;
  }
  if (mailer) {
    try {
      await sendConfirmation(db, id, email, mailer);
    } catch (error) {
      // The account is made either way, its address waiting (its page offers the link again).
      if (error instanceof KilnError && error.code === "ErrTooManyRequests") await storeLink(db, id, email);
      console.warn(`kiln: the confirmation link for account ${id} was not sent: ${error instanceof KilnError ? error.code : String(error)}`);
    }
  }
  return id;
}
