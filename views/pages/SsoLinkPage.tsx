// The step that links a provider to an account that already has its email: the account's
// password proves it is the owner's (an email claim alone never does), with its two-factor code
// when it has one (a link is a lasting way in).
import { Shell } from "../layout/Shell";
import { usePage } from "../context";
import { AuthCard } from "../components/AuthCard";
import { PasswordInput } from "../components/PasswordInput";

export function SsoLinkPage({ token, email, providerName, secondFactor = false, error }: { token: string; email: string; providerName: string; secondFactor?: boolean; error?: string }) {
  const { t } = usePage();
  return (
    <Shell title={t("sso.link.title")}>
      <AuthCard title={t("sso.link.title")} subtitle={t("sso.link.text", { provider: providerName, email })} error={error}>
        <form method="post" action="/auth/sso/link" className="stack" data-testid="sso-link-form">
          <input type="hidden" name="token" value={token} />
          <input type="email" name="email" value={email} autoComplete="username" readOnly hidden />
          <PasswordInput name="password" label={t("auth.password")} autoComplete="current-password" />
          {secondFactor ? (
            <label className="field">
              <span className="field-label">{t("auth.otp.code")}</span>
              <input type="text" name="code" autoComplete="one-time-code" required aria-describedby="sso-link-code-hint" />
              <small className="muted" id="sso-link-code-hint">{t("auth.otp.text")}</small>
            </label>
          ) : null}
          <button type="submit" className="btn btn-primary btn-block">{t("sso.link.submit")}</button>
          <a className="btn btn-block" href="/auth/login">{t("common.cancel")}</a>
        </form>
      </AuthCard>
    </Shell>
  );
}
