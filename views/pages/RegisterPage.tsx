// Self-registration, offered only while the registration setting is on.
import { Shell } from "../layout/Shell";
import { usePage } from "../context";
import { AuthCard } from "../components/AuthCard";
import { Alert } from "../components/Alert";
import { PasswordInput } from "../components/PasswordInput";

export function RegisterPage({ enabled = true, error, values }: { enabled?: boolean; error?: string; values?: { username?: string; email?: string } }) {
  const { t } = usePage();
  return (
    <Shell title={t("auth.register.title")}>
      <AuthCard title={t("auth.register.title")} error={error}>
        {enabled ? (
          <form method="post" action="/auth/register" className="stack">
            <label className="field">
              <span className="field-label">{t("auth.username")}</span>
              <input type="text" name="username" autoComplete="username" required minLength={5} pattern="[A-Za-z0-9_\-]+" defaultValue={values?.username} />
            </label>
            <label className="field">
              <span className="field-label">{t("auth.email")}</span>
              <input type="email" name="email" autoComplete="email" required defaultValue={values?.email} />
            </label>
            <PasswordInput name="password" label={t("auth.password")} autoComplete="new-password" />
            <PasswordInput name="passwordConfirm" label={t("auth.passwordConfirm")} autoComplete="new-password" />
            <button type="submit" className="btn btn-primary btn-block">{t("auth.register.submit")}</button>
          </form>
        ) : (
          <Alert kind="info">{t("auth.register.disabled")}</Alert>
        )}
        <p className="muted center">
          {t("auth.register.haveAccount")} <a href="/auth/login">{t("auth.register.loginLink")}</a>
        </p>
      </AuthCard>
    </Shell>
  );
}
