// Inviting someone by email: the account is created as invited, and the link is emailed when
// email is configured. The link is also returned, so an admin without email can pass it on.
import type { Context } from "hono";
import type { Deps } from "./deps";
import { inviteUser } from "./services/users";
import { sendEmail } from "./services/email";
import { publicOrigin } from "./relying-party";
import { brandName } from "./render";
import { translatorFor } from "./i18n";
import type { Locale } from "../core/i18n/locales";
import { KilnError } from "../core/errors";

export interface InviteResult {
  id: number;
  inviteUrl: string;
  emailSent: boolean;
}

export async function invite(c: Context, deps: Deps, email: string, locale: Locale): Promise<InviteResult> {
  const { id, token } = inviteUser(deps.db, email);
  const inviteUrl = `${publicOrigin(c, deps)}/auth/invite?token=${encodeURIComponent(token)}`;
  const t = translatorFor(locale);
  const brand = brandName(deps);
  try {
    await sendEmail(
      { db: deps.db, mailgunBaseUrl: deps.config.mailgunBaseUrl, mailjetBaseUrl: deps.config.mailjetBaseUrl },
      { to: email, subject: t("email.invite.subject", { brand }), text: t("email.invite.text", { brand, url: inviteUrl }) },
    );
    return { id, inviteUrl, emailSent: true };
  } catch (error) {
    if (error instanceof KilnError && (error.code === "ErrEmailNotConfigured" || error.code === "ErrServiceNotAvailable" || error.code === "ErrSettingNotConfigured")) {
      return { id, inviteUrl, emailSent: false };
    }
    throw error;
  }
}
