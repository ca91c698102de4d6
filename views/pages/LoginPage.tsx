// Login screen and its two-factor code dialog. Forms post to /auth/login and
// /auth/otp and work without script; a passkey button appears when the browser can use one.
import { Shell } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { AuthCard } from "../components/AuthCard";
import { PasswordInput } from "../components/PasswordInput";
import { Island } from "../components/Island";
import PasskeyLogin from "../../islands/PasskeyLogin";
import type { FirstAdminNotice } from "../../server/services/users";

export interface LoginPageProps {
  error?: string;
  email?: string;
  reason?: string;
  /** the password was right and the account wants its two-factor code */
  otpStep?: boolean;
  registrationEnabled?: boolean;
  /** The first administrator has not logged in yet: where its password is. */
  firstAdmin?: FirstAdminNotice | null;
  /** Identity providers to log in through (services/sso), shown as buttons under the form. */
  providers?: { id: string; name: string }[];
  /** SSO-only mode: the password form is kept for the break-glass administrator, behind a link. */
  ssoOnly?: boolean;
  showPassword?: boolean;
}

export function LoginPage({ error, email, reason, otpStep, registrationEnabled, firstAdmin, providers = [], ssoOnly = false, showPassword = false }: LoginPageProps) {
  const passwordForm = !ssoOnly || showPassword || otpStep === true;
  const { t } = usePage();
  return (
    <Shell title={t("auth.login.title")}>
      <AuthCard
        title={t("auth.login.title")}
        subtitle={t("auth.login.subtitle")}
        error={otpStep ? undefined : error}
        notice={
          reason === "session_timed_out" ? (
            <Alert kind="warning">{t("auth.sessionTimedOut")}</Alert>
          ) : firstAdmin ? (
            <div data-testid="first-admin-notice">
              <Alert kind="info">{t(firstAdmin.generated ? "auth.firstAdmin.generated" : "auth.firstAdmin.fromEnvironment", { email: firstAdmin.email })}</Alert>
            </div>
          ) : null
        }
      >
        {passwordForm ? (
        <form method="post" action="/auth/login" className="stack">
          <label className="field">
            <span className="field-label">{t("auth.email")}</span>
            {/* Text, not email: an account with no address yet signs in by its username (checkCredentials). */}
            <input type="text" inputMode="email" name="email" autoComplete="username webauthn" required defaultValue={email} autoFocus={!otpStep} />
          </label>
          <PasswordInput name="password" label={t("auth.password")} autoComplete="current-password" />
          <button type="submit" className="btn btn-primary btn-block">{t("auth.login.submit")}</button>
        </form>
        ) : null}
        <Island island={PasskeyLogin} props={{}} />
        {providers.length > 0 ? (
          <nav className="sso-providers stack" aria-label={t("sso.loginWith")} data-testid="sso-providers">
            {providers.map((p) => (
              <a key={p.id} className="btn btn-block" href={`/auth/sso/${p.id}`}>{t("sso.continueWith", { name: p.name })}</a>
            ))}
          </nav>
        ) : null}
        {ssoOnly && !passwordForm ? (
          <p className="muted center small">
            <a href="/auth/login?password=1" data-testid="break-glass-link">{t("sso.breakGlass")}</a>
          </p>
        ) : null}
        {registrationEnabled && !ssoOnly ? (
          <p className="muted center">
            {t("auth.login.noAccount")} <a href="/auth/register">{t("auth.login.registerLink")}</a>
          </p>
        ) : null}
      </AuthCard>
      {otpStep ? (
        <div className="modal-layer">
          <div className="overlay-backdrop" />
          <form method="post" action="/auth/otp" className="overlay otp-dialog" role="dialog" aria-modal="true" aria-labelledby="otp-title">
            <h2 id="otp-title">{t("auth.otp.title")}</h2>
            <p className="muted">{t("auth.otp.text")}</p>
            {error ? <Alert kind="error">{error}</Alert> : null}
            <input type="text" name="token" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required autoFocus aria-label={t("auth.otp.code")} className="otp-input" />
            <div className="dialog-actions">
              <a className="btn" href="/auth/login">{t("common.cancel")}</a>
              <button type="submit" className="btn btn-primary">{t("auth.otp.submit")}</button>
            </div>
            {/* A recovery code has letters, so it gets its own field (the code field keeps the phone's number pad). */}
            <details className="recovery-login">
              <summary>{t("auth.otp.useRecovery")}</summary>
              <div className="stack">
                <label className="field">
                  <span className="field-label">{t("auth.otp.recoveryCode")}</span>
                  <input type="text" name="token" form="recovery-login" autoComplete="off" autoCapitalize="none" spellCheck={false} maxLength={32} required placeholder="xxxx-xxxx-xxxx-xxxx" />
                </label>
                <div className="dialog-actions">
                  <button type="submit" form="recovery-login" className="btn">{t("auth.otp.submitRecovery")}</button>
                </div>
              </div>
            </details>
          </form>
          <form method="post" action="/auth/otp" id="recovery-login" hidden />
        </div>
      ) : null}
    </Shell>
  );
}
