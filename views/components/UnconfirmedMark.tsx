// The mark beside an address its holder has not confirmed (services/users/email-confirmation): it
// is only what they typed, so nothing shared by address reaches them and an administrator may give
// the address to someone else. One mark, so every list says it alike.
import { usePage } from "../context";

export function UnconfirmedMark() {
  const { t } = usePage();
  return <> <span className="badge badge-warn" title={t("users.emailUnconfirmed")} data-testid="email-unconfirmed">{t("users.unconfirmed")}</span></>;
}
