// Add user: create with a password, or leave it empty to invite by email.
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { PasswordInput } from "../components/PasswordInput";
import { CopyableSecret } from "../components/CopyableSecret";
import { formErrors, type FormError } from "../components/form-errors";

export interface InviteOutcome {
  email: string;
  emailSent: boolean;
  /** the link, for a caller to pass on when email could not go out */
  inviteUrl?: string;
}

export function AddUserPage({ error, values, invited }: { error?: FormError; values?: { email?: string; username?: string }; invited?: InviteOutcome }) {
  const { t } = usePage();
  const errors = formErrors("adduser", error, ["email", "username", "password"]);
  return (
    <Shell title={t("page.addUser.title")}>
      <PageHeader title={t("page.addUser.title")} />
      <section className="card stack form-narrow">
        {invited ? (
          <Alert kind="info">
            <strong>{t("users.invited")}</strong>
            <p>{invited.emailSent ? t("users.inviteSent", { email: invited.email }) : t("users.inviteLink", { email: invited.email })}</p>
            {!invited.emailSent && invited.inviteUrl ? <CopyableSecret value={invited.inviteUrl} what={t("users.inviteLinkName")} testId="invite-url" /> : null}
          </Alert>
        ) : null}
        {errors.alert}
        <p className="muted">{t("users.addHint")}</p>
        <form method="post" action="/adduser" className="stack">
          <label className="field">
            <span className="field-label">{t("auth.email")}</span>
            <input type="email" name="email" required defaultValue={values?.email} {...errors.input("email")} />
            {errors.message("email")}
          </label>
          <label className="field">
            <span className="field-label">{t("auth.username")}</span>
            <input type="text" name="username" minLength={5} pattern="[A-Za-z0-9_\-]+" defaultValue={values?.username} {...errors.input("username")} />
            {errors.message("username")}
          </label>
          <PasswordInput name="password" label={t("users.passwordOptional")} autoComplete="new-password" required={false} errors={errors} />
          <div><button type="submit" className="btn btn-primary">{t("users.create")}</button></div>
        </form>
      </section>
    </Shell>
  );
}
