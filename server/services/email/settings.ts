// Reads the panel.email.* settings into one typed object, and names the ones a provider cannot do without.
import type { Db } from "../../../db";
import { KilnError } from "../../../core/errors/kiln-error";
import { getSetting, SETTING_KEYS } from "../settings";

export const EMAIL_KEYS = {
  provider: SETTING_KEYS.emailProvider,
  from: SETTING_KEYS.emailFrom,
  domain: SETTING_KEYS.emailDomain,
  key: SETTING_KEYS.emailKey,
  host: SETTING_KEYS.emailHost,
  username: SETTING_KEYS.emailUsername,
  password: SETTING_KEYS.emailPassword,
} as const;

export type EmailSettingName = keyof typeof EMAIL_KEYS;

/** An empty value counts as unset, since a cleared form field saves "". */
export type EmailSettings = Record<EmailSettingName, string | undefined>;

/**
 * The stored email settings; with `unsaved` (checked values from the settings form, by key), those
 * instead: what a test email from the form uses without saving it. A key the form left out (an
 * empty secret) is the stored one.
 */
export async function readEmailSettings(db: Db, unsaved: ReadonlyMap<string, string> = new Map()): Promise<EmailSettings> {
  // Stray whitespace from a pasted host or key is trimmed; a password is taken exactly as typed.
  const read = async (name: EmailSettingName) => {
    const value = unsaved.get(EMAIL_KEYS[name]) ?? await getSetting(db, EMAIL_KEYS[name]);
    return (name === "password" ? value : value?.trim()) || undefined;
  };
  return {
    provider: await read("provider"),
    from: await read("from"),
    domain: await read("domain"),
    key: await read("key"),
    host: await read("host"),
    username: await read("username"),
    password: await read("password"),
  };
}

/** The value of a setting the chosen provider needs; ErrSettingNotConfigured names the key when it is missing. */
export function required(settings: EmailSettings, name: EmailSettingName): string {
  const value = settings[name];
  if (value === undefined) throw new KilnError("ErrSettingNotConfigured", { name: EMAIL_KEYS[name] });
  return value;
}
