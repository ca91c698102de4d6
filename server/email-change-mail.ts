// How this panel tells an account's previous address that the address changed
// (services/users/email-change-notice), or null without working email. The mail holds no link, so
// it needs no master URL; it names the brand (one line, settings' rule), the username and the new
// address masked, and says what to do if the change was not the holder's.
import type { Context } from "hono";
import type { KilnEnv } from "./context";
import type { Deps } from "./deps";
import type { EmailChangeNotifier } from "./services/users/email-change-notice";
import { emailProvider, readEmailSettings, sendEmail } from "./services/email";
import { brandName } from "./render";
import { translatorFor } from "../locales/tables";

export async function emailChangeNotifier(c: Context<KilnEnv>, deps: Deps): Promise<EmailChangeNotifier> {
  if (emailProvider(await readEmailSettings(deps.db)) === "none") return null;
  const t = translatorFor(c.get("locale"));
  const brand = await brandName(deps);
  return async ({ to, username, masked }) => {
    await sendEmail(
      { db: deps.db, mailgunBaseUrl: deps.config.mailgunBaseUrl, mailjetBaseUrl: deps.config.mailjetBaseUrl },
      { to, subject: t("email.changed.subject", { brand }), text: t("email.changed.text", { brand, username, email: masked }) },
    );
  };
}
