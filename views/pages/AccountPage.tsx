// Account screen (spec section 2): profile, password, two-factor, passkeys and OAuth2 clients.
// Every form works without script; adding a passkey needs the browser, so it is an island.
import type { UserView } from "../../server/services/users";
import type { PasskeyView } from "../../server/services/passkeys";
import type { ClientView } from "../../server/services/oauth2";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { PasswordInput } from "../components/PasswordInput";
import { OAuth2ClientsCard } from "../components/OAuth2ClientsCard";
import { Island } from "../components/Island";
import AddPasskey from "../../islands/AddPasskey";

export type AccountSection = "profile" | "password" | "otp" | "passkeys" | "oauth2";

export interface AccountPageProps {
  account: UserView;
  passkeys: PasskeyView[];
  clients: ClientView[];
  otpEnrolment?: { secret: string; img: string } | null;
  createdClient?: { id: string; secret: string };
  error?: { section: AccountSection; message: string };
}

export function AccountPage({ account, passkeys, clients, otpEnrolment, createdClient, error }: AccountPageProps) {
  const { t, locale } = usePage();
  const errorFor = (section: AccountSection) => (error?.section === section ? <Alert kind="error">{error.message}</Alert> : null);
  const date = (ms: number) => new Date(ms).toLocaleDateString(locale.replace("_", "-"), { year: "numeric", month: "short", day: "numeric" });
  return (
    <Shell title={t("page.account.title")}>
      <PageHeader title={t("page.account.title")} />
      <div className="grid-2">
        <section className="card stack" id="profile">
          <h2>{t("account.profile")}</h2>
          <p className="muted">{t("account.profileHint")}</p>
          {errorFor("profile")}
          <form method="post" action="/account/profile" className="stack">
            <label className="field">
              <span className="field-label">{t("auth.username")}</span>
              <input type="text" name="username" defaultValue={account.username} autoComplete="username" required minLength={5} />
            </label>
            <label className="field">
              <span className="field-label">{t("auth.email")}</span>
              <input type="email" name="email" defaultValue={account.email} autoComplete="email" required />
            </label>
            <PasswordInput name="password" label={t("account.currentPassword")} autoComplete="current-password" />
            <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div>
          </form>
        </section>

        <section className="card stack" id="password">
          <h2>{t("account.changePassword")}</h2>
          {errorFor("password")}
          <form method="post" action="/account/password" className="stack">
            <PasswordInput name="password" label={t("account.currentPassword")} autoComplete="current-password" />
            <PasswordInput name="newPassword" label={t("account.newPassword")} autoComplete="new-password" />
            <PasswordInput name="newPasswordConfirm" label={t("account.confirmPassword")} autoComplete="new-password" />
            <div><button type="submit" className="btn btn-primary">{t("account.changePassword")}</button></div>
          </form>
        </section>

        <section className="card stack" id="otp">
          <h2>{t("account.otp.title")}</h2>
          {errorFor("otp")}
          {account.otpEnabled ? (
            <>
              <p><span className="badge badge-on">{t("account.otp.enabled")}</span></p>
              <form method="post" action="/account/otp/disable" className="stack">
                <label className="field">
                  <span className="field-label">{t("account.otp.disableHint")}</span>
                  <input type="text" name="token" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required className="otp-input" />
                </label>
                <div><button type="submit" className="btn btn-danger">{t("account.otp.disable")}</button></div>
              </form>
            </>
          ) : otpEnrolment ? (
            <form method="post" action="/account/otp/confirm" className="stack">
              <p className="muted">{t("account.otp.scan")}</p>
              <img className="qr" src={otpEnrolment.img} alt="" width={220} height={220} />
              <p className="small">
                {t("account.otp.secret")}: <code data-testid="otp-secret">{otpEnrolment.secret}</code>
              </p>
              <input type="text" name="token" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required aria-label={t("auth.otp.code")} className="otp-input" autoFocus />
              <div><button type="submit" className="btn btn-primary">{t("account.otp.confirm")}</button></div>
            </form>
          ) : (
            <>
              <p className="muted">{t("account.otp.disabled")}</p>
              <form method="post" action="/account/otp/start">
                <button type="submit" className="btn btn-primary">{t("account.otp.enable")}</button>
              </form>
            </>
          )}
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
                    <strong>{p.name}</strong>
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
          <Island island={AddPasskey} props={{}} />
        </section>
      </div>
      <OAuth2ClientsCard clients={clients} base="/account/oauth2" back="/account" created={createdClient} />
    </Shell>
  );
}
