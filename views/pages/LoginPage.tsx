// Login screen (spec section 2). The form posts to /auth/login and works without script.
import { Shell } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { PasswordInput } from "../components/PasswordInput";

export function LoginPage({ error, email, reason }: { error?: string; email?: string; reason?: string }) {
  const { t } = usePage();
  return (
    <Shell title={t("auth.login.title")}>
      <div className="auth-wrap">
        <section className="card auth-card">
          <h1>{t("auth.login.title")}</h1>
          <p className="muted">{t("auth.login.subtitle")}</p>
          {reason === "session_timed_out" ? <Alert kind="warning">{t("auth.sessionTimedOut")}</Alert> : null}
          {error ? <Alert kind="error">{error}</Alert> : null}
          <form method="post" action="/auth/login" className="stack">
            <label className="field">
              <span className="field-label">{t("auth.email")}</span>
              <input type="email" name="email" autoComplete="username" required defaultValue={email} autoFocus />
            </label>
            <PasswordInput name="password" label={t("auth.password")} autoComplete="current-password" />
            <button type="submit" className="btn btn-primary btn-block">{t("auth.login.submit")}</button>
          </form>
        </section>
      </div>
    </Shell>
  );
}
