// Account field rules (username, email, password), shared by the API, the CLI and the forms.
import { KilnError } from "../errors";
import { normalizeEmail } from "./email";
import { labelHasEscapes } from "../text/shown-label";

export const MIN_USERNAME_LENGTH = 5;
/** Longer than any name a person types, short enough for every list that shows one (a stranger registering chooses it). */
export const MAX_USERNAME_LENGTH = 64;
export const MIN_PASSWORD_LENGTH = 8;
/**
 * Passkeys one account holds: far more than anyone's devices, few enough that registering in a
 * loop (each needs the password, which the holder has) does not grow the database without end.
 */
export const MAX_PASSKEYS_PER_ACCOUNT = 25;
/** The longest email an account can have (RFC 5321's limit on a path, less its brackets). */
export const MAX_EMAIL_LENGTH = 254;
const USERNAME = /^[A-Za-z0-9_-]+$/;
// Deliberately plain: one @, something on each side, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateUsername(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw new KilnError("ErrFieldRequired", { field: "username" });
  const username = value.trim();
  if (username.length > MAX_USERNAME_LENGTH) throw new KilnError("ErrFieldTooLarge", { field: "username", max: MAX_USERNAME_LENGTH });
  if (username.length < MIN_USERNAME_LENGTH || !USERNAME.test(username)) throw new KilnError("ErrUsernameRequirements", { field: "username" });
  return username;
}

export function validateEmail(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw new KilnError("ErrFieldRequired", { field: "email" });
  const email = normalizeEmail(value);
  // An address is shown in lists and named in mail: one that a list would have to show with
  // escapes (a control such as NEL, a bidi override, a zero-width space) could draw as another's.
  if (!EMAIL.test(email) || email.length > MAX_EMAIL_LENGTH || labelHasEscapes(email)) throw new KilnError("ErrFieldNotEmail", { field: "email" });
  return email;
}

/** `field` names the input in a refusal, so a form can show it there (a new password is "newPassword" on the account form). */
export function validatePassword(value: unknown, field = "password"): string {
  if (typeof value !== "string" || value === "") throw new KilnError("ErrFieldRequired", { field });
  if (value.length < MIN_PASSWORD_LENGTH) throw new KilnError("ErrPasswordRequirements", { field });
  return value;
}

export function validatePasswordsMatch(password: string, confirm: string, field = "passwordConfirm"): void {
  if (password !== confirm) throw new KilnError("ErrPasswordsNotIdentical", { field });
}
