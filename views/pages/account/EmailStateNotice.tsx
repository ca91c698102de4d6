// The Account screen's word on the address: a new one waiting for its emailed link, or the current
// one unconfirmed (nothing shared by address reaches the account then), or none of its own yet (a
// placeholder: it signs in by its username meanwhile), with the link sent again
// when the panel can mail it, else who can confirm it instead.
import type { EmailState } from "../../../server/services/users/email-confirmation";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";

export function EmailStateNotice({ state, mayMail }: { state: EmailState; mayMail: boolean }) {
  const { t } = usePage();
  if (state.pending === null && state.confirmed) return null;
  // An account holding a placeholder (state.own "") has no address of its own: a registration
  // waiting for its link reads the same whether its address was free or held (docs/accounts.md).
  const placeholder = state.own === "";
  const resend = mayMail && !(placeholder && state.pending === null) ? (
    <form method="post" action="/account/email/resend">
      <button type="submit" className="btn">{t("account.email.resend")}</button>
    </form>
  ) : null;
  return (
    <Alert kind="warning">
      {/* Apart from each other: both sentences can show at once, and the button after them. */}
      <div className="stack email-state">
        {placeholder ? <p>{state.pending !== null ? t("account.email.pendingFirst", { email: state.pending }) : t("account.email.none")}</p> : null}
        {!placeholder && state.pending !== null ? <p>{t("account.email.pending", { email: state.pending })}</p> : null}
        {!placeholder && !state.confirmed ? <p>{t(mayMail ? "account.email.unconfirmed" : "account.email.unconfirmedNoMail", { email: state.email })}</p> : null}
        {resend}
      </div>
    </Alert>
  );
}
