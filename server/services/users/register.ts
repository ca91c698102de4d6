// Self-registration: a stranger making an account, when an administrator opened it. Every rule
// is here, so the page and the JSON call refuse alike.
import type { Db } from "../../../db";
import { KilnError } from "../../../core/errors";
import { validateEmail, validatePassword, validatePasswordsMatch, validateUsername } from "../../../core/validation/account";
import { isRegistrationEnabled } from "../settings";
import { ssoMode } from "../sso/mode";
import { createUser } from "./create-user";
import { countRegistration } from "./registration-quota";

export interface Registration {
  username: string;
  email: string;
  password: string;
  passwordConfirm?: string;
}

/** Makes the account (no scopes) for a stranger at `address`; its id. */
export async function registerAccount(db: Db, input: Registration, address: string): Promise<number> {
  if (!await isRegistrationEnabled(db)) throw new KilnError("ErrNoPermission", { reason: "registration-disabled" });
  if ((await ssoMode(db)).ssoOnly) throw new KilnError("ErrSsoOnly");
  // A mistyped form costs nothing; anything that reaches the accounts table (a clash included) is counted.
  validateUsername(input.username);
  validateEmail(input.email);
  validatePassword(input.password);
  if (input.passwordConfirm !== undefined) validatePasswordsMatch(input.password, input.passwordConfirm);
  await countRegistration(db, address);
  try {
    // Self-registered users hold no permissions until an administrator grants them.
    return (await createUser(db, { username: input.username, email: input.email, password: input.password, scopes: [] })).id;
  } catch (error) {
    // Saying "that email is taken" would tell strangers who has an account here.
    if (error instanceof KilnError && error.code === "ErrDuplicateUser") throw new KilnError("ErrSavingInviteduser");
    throw error;
  }
}
