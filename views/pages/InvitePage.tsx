// Accepting an invitation: the invitee chooses a username and a password.
import { Shell } from "../layout/Shell";
import { usePage } from "../context";
import { AuthCard } from "../components/AuthCard";
import { PasswordInput } from "../components/PasswordInput";

export function InvitePage({ token, email, error }: { token: string; email?: string; error?: string }) {
  const { t } = usePage();
  return (
    <Shell title={t("auth.invite.title")}>
      <AuthCard title={t("auth.invite.title")} subtitle={email ? t("auth.invite.subtitle") : undefined} error={error}>
        {email ? (
          <form method="post" action="/auth/invite" className="stack">
            <input type="hidden" name="token" value={token} />
            <label className="field">
              <span className="field-label">{t("auth.email")}</span>
              <input type="email" value={email} readOnly />
            </label>
            <label className="field">
              <span className="field-label">{t("auth.username")}</span>
              <input type="text" name="username" autoComplete="username" required minLength={5} pattern="[A-Za-z0-9_\-]+" />
            </label>
            <PasswordInput name="password" label={t("auth.password")} autoComplete="new-password" />
            <PasswordInput name="passwordConfirm" label={t("auth.passwordConfirm")} autoComplete="new-password" />
            <button type="submit" className="btn btn-primary btn-block">{t("auth.invite.submit")}</button>
          </form>
        ) : null}
      </AuthCard>
    </Shell>
  );
}
