// The Account screen's word on the address: a new one waiting for its emailed link, or the current
// one unconfirmed (nothing shared by address reaches the account then), with the link sent again
// when the panel can mail it, else who can confirm it instead.
import type { EmailState } from "../../../server/services/users/email-confirmation";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";

export function EmailStateNotice({ state, mayMail }: { state: EmailState; mayMail: boolean }) {
  const { t } = usePage();
  if (state.pending === null && state.confirmed) return null;
  const resend = mayMail ? (
    <form method="post" action="/account/email/resend">
      <button type="submit" className="btn">{t("account.email.resend")}</button>
    </form>
  ) : null;
  return (
    <Alert kind="warning">
      {/* Apart from each other: both sentences can show at once, and the button after them. */}
      <div className="stack email-state">
        {state.pending !== null ? <p>{t("account.email.pending", { email: state.pending })}</p> : null}
        {!state.confirmed ? <p>{t(mayMail ? "account.email.unconfirmed" : "account.email.unconfirmedNoMail", { email: state.email })}</p> : null}
        {resend}
      </div>
    </Alert>
  );
}
