// Account screen: profile, password, two-factor, passkeys and OAuth2 clients.
// Every form works without script; adding a passkey needs the browser, so it is an island.
import type { UserView } from "../../server/services/users";
import type { PasskeyView } from "../../server/services/passkeys";
import type { AccountClientView } from "../../server/services/oauth2";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { PasswordInput } from "../components/PasswordInput";
import { OAuth2ClientsCard } from "../components/OAuth2ClientsCard";
import { ActivityTable } from "../components/ActivityTable";
import type { ActivityView } from "../../server/services/activity/list";
import type { LinkedIdentity } from "../../server/services/sso/identities";
import { TwoFactorSection } from "./account/TwoFactorSection";
import { Island } from "../components/Island";
import { formErrors, type FormError } from "../components/form-errors";
import { RecoveryCodesDialog } from "../components/RecoveryCodesDialog";
import AddPasskey from "../../islands/AddPasskey";
import type { EmailState } from "../../server/services/users/email-confirmation";
import { EmailStateNotice } from "./account/EmailStateNotice";
import { ProviderSignInNotice } from "./account/ProviderSignInNotice";
import { ShownLabel } from "../../islands/lib/ShownLabel";
import { MAX_PASSKEYS_PER_ACCOUNT } from "../../core/validation/account";

export type AccountSection = "profile" | "password" | "otp" | "passkeys" | "oauth2";

export interface AccountPageProps {
  account: UserView;
  passkeys: PasskeyView[];
  /** every client the account holds, bound ones with their server */
  clients: AccountClientView[];
  otpEnrolment?: { secret: string; img: string } | null;
  /** unused two-factor recovery codes */
  recoveryCodesLeft: number;
  /** a set of recovery codes just made: shown this once */
  recoveryCodes?: string[];
  createdClient?: { id: string; secret: string };
  /** `form` tells apart the forms of one section (the two-factor section has several) */
  error?: FormError & { section: AccountSection; form?: string };
  /** The account's latest logins and refused attempts (the activity log). */
  logins: ActivityView[];
  /** Changes to how the account signs in, and who made them (a manager securing it after a takeover shows here). */
  signInChanges: ActivityView[];
  /** Identity providers linked to the account, and those it could link (enabled ones). */
  identities: LinkedIdentity[];
  providers: { id: string; name: string }[];
  /** Whether the account has a password: linking a provider asks for it then. */
  hasPassword: boolean;
  /** An account without a password whose login holds no fresh sign-in through its provider: offered that sign-in first. */
  needsProviderSignIn: boolean;
  /** Whether the address is confirmed, and a new one waiting for its link. */
  emailState: EmailState;
  /** Whether this panel can mail a confirmation link (email and the master URL set). */
  mayMailConfirmation: boolean;
}

export function AccountPage({ account, passkeys, clients, otpEnrolment, recoveryCodesLeft, recoveryCodes, createdClient, error, logins, signInChanges, identities, providers, hasPassword, needsProviderSignIn, emailState, mayMailConfirmation }: AccountPageProps) {
  const { t, locale } = usePage();
  const errorFor = (section: AccountSection) => (error?.section === section ? <Alert kind="error">{error.message}</Alert> : null);
  /** The error display of one form: beside its field, or above the form. */
  const errorsOf = (section: AccountSection, form: string, fields: string[]) =>
    formErrors(`${section}-${form}`, error?.section === section && (error.form ?? section) === form ? error : undefined, fields);
  const profile = errorsOf("profile", "profile", ["username", "email", "password"]);
  const resend = errorsOf("profile", "resend", []);
  const password = errorsOf("password", "password", ["password", "newPassword", "newPasswordConfirm"]);
  const date = (ms: number) => new Date(ms).toLocaleDateString(locale.replace("_", "-"), { year: "numeric", month: "short", day: "numeric" });
  return (
    <Shell title={t("page.account.title")}>
      <PageHeader title={t("page.account.title")} />
      <div className="grid-2">
        <section className="card stack" id="profile">
          <h2>{t("account.profile")}</h2>
          <p className="muted">{t("account.profileHint")}</p>
          {profile.alert}
          <EmailStateNotice state={emailState} mayMail={mayMailConfirmation} />
          {resend.alert}
          <form method="post" action="/account/profile" className="stack">
            <label className="field">
              <span className="field-label">{t("auth.username")}</span>
              <input type="text" name="username" defaultValue={account.username} autoComplete="username" required minLength={5} {...profile.input("username")} />
              {profile.message("username")}
            </label>
            <label className="field">
              <span className="field-label">{t("auth.email")}</span>
              <input type="email" name="email" defaultValue={emailState.own || (emailState.pending ?? "")} autoComplete="email" required {...profile.input("email")} />
              {profile.message("email")}
            </label>
            <PasswordInput name="password" label={t("account.currentPassword")} autoComplete="current-password" errors={profile} />
            <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div>
          </form>
        </section>

        <section className="card stack" id="password">
          <h2>{t("account.changePassword")}</h2>
          {password.alert}
          <form method="post" action="/account/password" className="stack">
            <PasswordInput name="password" label={t("account.currentPassword")} autoComplete="current-password" errors={password} />
            <PasswordInput name="newPassword" label={t("account.newPassword")} autoComplete="new-password" errors={password} />
            <PasswordInput name="newPasswordConfirm" label={t("account.confirmPassword")} autoComplete="new-password" errors={password} />
            <div><button type="submit" className="btn btn-primary">{t("account.changePassword")}</button></div>
          </form>
        </section>

        <section className="card stack" id="otp">
          <h2>{t("account.otp.title")}</h2>
          <TwoFactorSection enabled={account.otpEnabled} enrolment={otpEnrolment} codesLeft={recoveryCodesLeft} hasPassword={hasPassword} errorsOf={(form, fields) => errorsOf("otp", form, fields)} />
          {needsProviderSignIn && !account.otpEnabled ? <ProviderSignInNotice identities={identities} /> : null}
          <p className="muted small">{t("account.otp.sftpNote")}</p>
        </section>

        <section className="card stack" id="passkeys">
          <h2>{t("account.passkeys.title")}</h2>
          <p className="muted">{t("account.passkeys.hint")}</p>
          {errorFor("passkeys")}
          {passkeys.length === 0 ? (
            <p className="muted">{t("account.passkeys.none")}</p>
          ) : (
            <ul className="list">
              {passkeys.map((p) => (
                <li key={p.id} className="list-row">
                  <div>
                    <strong><ShownLabel text={p.name} hint={t("common.hiddenCharacters")} dir="auto" /></strong>
                    <div className="muted small">
                      {t("account.passkeys.created", { date: date(p.createdAt) })}
                      {p.lastUsedAt ? ` · ${t("account.passkeys.lastUsed", { date: date(p.lastUsedAt) })}` : ""}
                    </div>
                  </div>
                  <form method="post" action={`/account/passkeys/${encodeURIComponent(p.id)}/delete`}>
                    <button type="submit" className="btn btn-danger-text">{t("account.passkeys.remove")}</button>
                  </form>
                </li>
              ))}
            </ul>
          )}
          {/* A full account is told why there is no way to add one, before the browser asks for a key. */}
          {passkeys.length >= MAX_PASSKEYS_PER_ACCOUNT ? <p className="muted">{t("errors.ErrPasskeyLimit", { max: MAX_PASSKEYS_PER_ACCOUNT })}</p> : <Island island={AddPasskey} props={{}} />}
        </section>
      </div>
      <OAuth2ClientsCard clients={clients} base="/account/oauth2" back="/account" created={createdClient} createError={error?.section === "oauth2" && error.form === "create" ? error : undefined} />
      {providers.length > 0 || identities.length > 0 ? (
        <section className="card stack" id="sso" data-testid="account-sso">
          <h2>{t("sso.account.title")}</h2>
          <p className="muted">{t("sso.account.hint")}</p>
          {needsProviderSignIn && providers.some((p) => !identities.some((i) => i.providerId === p.id)) ? <ProviderSignInNotice identities={identities} /> : null}
          <ul className="sso-identities">
            {providers.map((provider) => {
              const linked = identities.find((i) => i.providerId === provider.id);
              return (
                <li key={provider.id} data-provider={provider.id}>
                  <span>
                    {/* The address is the provider's claim, as it sent it: shown by the rule of untrusted labels. */}
                    <strong><ShownLabel text={provider.name} hint={t("common.hiddenCharacters")} dir="auto" /></strong>
                    {linked ? <span className="muted small"> · {linked.email ? <ShownLabel text={linked.email} hint={t("common.hiddenCharacters")} /> : t("sso.account.linked")}</span> : null}
                  </span>
                  <form method="post" action={`/account/sso/${provider.id}/${linked ? "unlink" : "link"}`} className="sso-link-form">
                    {!linked && hasPassword ? <input type="password" name="password" required autoComplete="current-password" placeholder={t("account.currentPassword")} aria-label={t("account.currentPassword")} /> : null}
                    <button type="submit" className="btn">{t(linked ? "sso.account.unlink" : "sso.account.link")}</button>
                  </form>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      <section className="card table-card stack" id="logins">
        <h2>{t("account.logins")}</h2>
        <p className="muted">{t("account.loginsHint")}</p>
        {logins.length === 0 ? <p className="muted">{t("activity.none")}</p> : <ActivityTable events={logins} showServer={false} testId="account-logins" />}
      </section>
      <section className="card table-card stack" id="sign-in-changes">
        <h2>{t("account.signInChanges")}</h2>
        <p className="muted">{t("account.signInChangesHint")}</p>
        {signInChanges.length === 0 ? <p className="muted">{t("activity.none")}</p> : <ActivityTable events={signInChanges} showServer={false} testId="account-sign-in-changes" />}
      </section>
      {recoveryCodes ? <RecoveryCodesDialog codes={recoveryCodes} email={emailState.own || account.username} /> : null}
    </Shell>
  );
}
