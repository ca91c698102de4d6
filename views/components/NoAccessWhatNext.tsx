// What someone who holds nothing does next, said once for the server list's empty state and the
// no-access note on other pages: ask an administrator to add them by their address, or, while
// that address is unconfirmed, confirm it first (a share by an unconfirmed address is refused,
// ErrEmailUnconfirmed: docs/accounts.md, "Confirmed addresses").
import { usePage } from "../context";

export function NoAccessWhatNext() {
  const { t, user, unconfirmedEmail, path } = usePage();
  if (unconfirmedEmail === null) return <>{t("serverList.noAccessMore", { email: user?.email ?? "" })}</>;
  return (
    <span data-testid="no-access-unconfirmed">
      {t("serverList.noAccessUnconfirmed", { email: unconfirmedEmail })}
      {path === "/account" ? null : <> <a href="/account">{t("common.toAccount")}</a></>}
    </span>
  );
}
