// Sending email through the provider chosen in the panel settings (none, smtp, mailgun, mailjet).
import type { Db } from "../../../db";
import { KilnError } from "../../../core/errors/kiln-error";
import type { EmailMessage } from "./message";
import { readEmailSettings, type EmailSettings } from "./settings";
import { sendWithSmtp } from "./smtp";
import { sendWithMailgun } from "./mailgun";
import { sendWithMailjet } from "./mailjet";

export type { EmailMessage } from "./message";
export { EMAIL_KEYS, readEmailSettings, type EmailSettings } from "./settings";

export interface EmailDeps {
  db: Db;
  /** base URLs, so tests can point them at a local server */
  mailgunBaseUrl: string;
  mailjetBaseUrl: string;
}


/** The provider email goes through; "none" when none is chosen (every send is ErrEmailNotConfigured). */
export const emailProvider = (settings: EmailSettings): string => settings.provider ?? "none";

/** `settings`: what the settings form holds, for its test email; else the stored settings. */
export async function sendEmail(deps: EmailDeps, message: EmailMessage, given?: EmailSettings): Promise<void> {
  const settings = given ?? (await readEmailSettings(deps.db));
  // Read on every send (the default), so a change on the settings page applies without a restart.
  const provider = emailProvider(settings);
  switch (provider) {
    case "none":
      throw new KilnError("ErrEmailNotConfigured");
    case "smtp":
      return sendWithSmtp(settings, message);
    case "mailgun":
      return sendWithMailgun(deps.mailgunBaseUrl, settings, message);
    case "mailjet":
      return sendWithMailjet(deps.mailjetBaseUrl, settings, message);
    default:
      throw new KilnError("ErrServiceInvalidProvider", { service: "email", provider });
  }
}
