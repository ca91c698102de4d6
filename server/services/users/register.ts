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
import { placeholderAddress } from "./unconfirmed-hold";
import { eq } from "drizzle-orm";
import { schema } from "../../../db";

export interface Registration {
  username: string;
  email: string;
  password: string;
  passwordConfirm?: string;
}

const addressHeld = async (db: Db, email: string): Promise<boolean> =>
  (await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email)).get()) !== undefined;

/**
 * Makes the account (no scopes) for a stranger at `address`; its id. The email is the stranger's
 * word only: unconfirmed, and its link mailed when the panel can (`mailer`). An address another
 * account holds only unconfirmed does not keep Bob out (unconfirmed-hold): with a link to mail, his
 * account is made with a placeholder and the address waits for its link, which takes it from that
 * holder; without, the clash is answered as any other, and an administrator gives Bob the address.
 * A confirmed or invited holder's address is answered the same (an account with a placeholder, its
 * link stored, no mail), so the answer says nothing of whether an address's holder confirmed it.
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
    // Self-registered users hold no permissions until an administrator grants them. With a link to
    // mail, an address another account holds waits for its link whoever holds it: refusing only a
    // confirmed (or invited) holder's told a stranger which accounts are live. A held address gets
    // no mail unless held unconfirmed (sendConfirmation), so the link of one held for good is never used.
    const waits = mailer !== null && await addressHeld(db, email);
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
