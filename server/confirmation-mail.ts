// How this panel mails an address's confirmation link (services/users/email-confirmation), or
// null when it cannot. The link names the master URL only: the address is one its requester chose
// (a registration, an email change), and a link built from the request's Host would lead its
// receiver, token and all, to the requester's own site, who would then confirm the address for
// their account. So without the master URL, as without email, addresses stay unconfirmed.
import type { Context } from "hono";
import type { KilnEnv } from "./context";
import type { Deps } from "./deps";
import type { ConfirmationMailer } from "./services/users/email-confirmation";
import { emailProvider, readEmailSettings, sendEmail } from "./services/email";
import { masterOrigin } from "./relying-party";
import { brandName } from "./render";
import { translatorFor } from "../locales/tables";
import { clientAddress } from "./request";

export async function confirmationMailer(c: Context<KilnEnv>, deps: Deps): Promise<ConfirmationMailer> {
  const origin = await masterOrigin(deps.db);
  if (!origin || emailProvider(await readEmailSettings(deps.db)) === "none") return null;
  const t = translatorFor(c.get("locale"));
  const brand = await brandName(deps);
  return {
    // Where the request came from: an address's links are bounded per asking network too.
    requester: clientAddress(c, deps.config.trustProxy),
    send: async (to, token) => {
      const url = `${origin}/auth/confirm-email?token=${encodeURIComponent(token)}`;
      await sendEmail(
        { db: deps.db, mailgunBaseUrl: deps.config.mailgunBaseUrl, mailjetBaseUrl: deps.config.mailjetBaseUrl },
        { to, subject: t("email.confirm.subject", { brand }), text: t("email.confirm.text", { brand, url }) },
      );
    },
  };
}
