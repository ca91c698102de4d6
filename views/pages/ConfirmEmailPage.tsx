// Confirming an address from its emailed link: the page names the address and the account, and a
// button posts the token (opening the link changes nothing: mail scanners open links too). A visitor
// already logged in (the link is often opened in the browser that holds the panel) is offered the
// way back to the panel and to their account page, not a login.
import { Shell } from "../layout/Shell";
import { usePage } from "../context";
import { AuthCard } from "../components/AuthCard";
import { Alert } from "../components/Alert";

export function ConfirmEmailPage({ token, email, username, confirmed, error }: { token: string; email?: string; username?: string; confirmed?: string; error?: string }) {
  const { t, user } = usePage();
  return (
    <Shell title={t("auth.confirmEmail.title")}>
      <AuthCard title={t("auth.confirmEmail.title")} error={error}>
        {confirmed ? <Alert kind="info">{t("auth.confirmEmail.done", { email: confirmed })}</Alert> : null}
        {email && username ? (
          <form method="post" action="/auth/confirm-email" className="stack">
            <input type="hidden" name="token" value={token} />
            <p>{t("auth.confirmEmail.question", { email, username })}</p>
            <p className="muted small">{t("auth.confirmEmail.notYou")}</p>
            <button type="submit" className="btn btn-primary btn-block">{t("auth.confirmEmail.submit")}</button>
          </form>
        ) : null}
        {user ? (
          <p className="confirm-email-next" data-testid="confirm-email-next">
            <a href="/server">{t("common.backHome")}</a> · <a href="/account">{t("common.toAccount")}</a>
          </p>
        ) : (
          <p><a href="/auth/login">{t("auth.register.loginLink")}</a></p>
        )}
      </AuthCard>
    </Shell>
  );
}
