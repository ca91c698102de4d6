// Another account's ways in, as a manager sees them on its user page: its passkeys, two-factor
// state and linked providers, each removable (one or all), and "Secure this account", which does
// all of it and ends every session and token. Each removal is final, so its overlay asks for a
// ticked acknowledgement, as the OAuth2 card's deletion does (server/services/users/sign-in-ways).
import type { ReactNode } from "react";
import type { PasskeyView } from "../../server/services/passkeys";
import type { LinkedIdentity } from "../../server/services/sso/identities";
import { usePage } from "../context";
import { ConfirmActions, ModalDetails } from "./Modal";
import { PasswordInput } from "./PasswordInput";
import { formErrors, type FormError } from "./form-errors";
import { ShownLabel } from "../../islands/lib/ShownLabel";
import { shownLabel } from "../../core/text/shown-label";

export interface SignInWays {
  passkeys: PasskeyView[];
  identities: LinkedIdentity[];
  hasPassword: boolean;
}

export interface SignInWaysCardProps extends SignInWays {
  userId: number;
  otpEnabled: boolean;
  /** may the viewer remove (users.edit over this account, and not their own) */
  canEdit: boolean;
  error?: FormError;
}

export function SignInWaysCard({ userId, passkeys, identities, hasPassword, otpEnabled, canEdit, error }: SignInWaysCardProps) {
  const { t, locale } = usePage();
  const formatDate = (ms: number) => new Date(ms).toLocaleDateString(locale.replace("_", "-"), { year: "numeric", month: "short", day: "numeric" });
  const errors = formErrors("sign-in-secure", error, ["password"]);
  const remove = (action: string, summary: string, title: string, extra?: ReactNode) => canEdit ? (
    <ModalDetails summary={summary} summaryClass="btn btn-danger-text" title={title}>
      <form method="post" action={`/user/${userId}/${action}`} className="stack">
        <p>{t("users.signIn.confirm")}</p>
        {extra}
        <label className="check-row">
          <input type="checkbox" name="ack" required />
          <span>{t("users.signIn.ack")}</span>
        </label>
        <ConfirmActions cancel={t("common.cancel")} confirm={summary} />
      </form>
    </ModalDetails>
  ) : null;
  return (
    <section className="card stack" id="sign-in" data-testid="user-sign-in">
      <h2>{t("users.signIn.title")}</h2>
      <p className="muted">{t("users.signIn.intro")}</p>
      {errors.alert}
      <div className="card-head">
        <h3>{t("account.passkeys.title")}</h3>
        {passkeys.length > 1 ? remove("passkeys/delete", t("users.signIn.removeAll"), t("account.passkeys.title")) : null}
      </div>
      {passkeys.length === 0 ? <p className="muted">{t("account.passkeys.none")}</p> : (
        <ul className="list">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="list-row" data-passkey={passkey.id}>
              <div>
                {/* Its holder's words, read here by someone deciding what to remove: a label someone else wrote. */}
                <strong><ShownLabel text={passkey.name} hint={t("common.hiddenCharacters")} dir="auto" /></strong>
                <div className="muted small">
                  {t("account.passkeys.created", { date: formatDate(passkey.createdAt) })}
                  {passkey.lastUsedAt ? <> · {t("account.passkeys.lastUsed", { date: formatDate(passkey.lastUsedAt) })}</> : null}
                </div>
              </div>
              {remove(`passkeys/${encodeURIComponent(passkey.id)}/delete`, t("account.passkeys.remove"), shownLabel(passkey.name))}
            </li>
          ))}
        </ul>
      )}
      <h3>{t("account.otp.title")}</h3>
      {/* A row like a passkey's: on a phone the state and its button stay side by side. */}
      <ul className="list">
        <li className="list-row" data-otp={otpEnabled ? "on" : "off"}>
          <span className={otpEnabled ? undefined : "muted"}>{t(otpEnabled ? "account.otp.enabled" : "account.otp.disabled")}</span>
          {otpEnabled ? remove("otp/delete", t("account.otp.disable"), t("account.otp.title")) : null}
        </li>
      </ul>
      <div className="card-head">
        <h3>{t("sso.account.title")}</h3>
        {identities.length > 1 ? remove("identities/delete", t("users.signIn.unlinkAll"), t("sso.account.title")) : null}
      </div>
      {identities.length === 0 ? <p className="muted">{t("users.signIn.noIdentities")}</p> : (
        <ul className="list">
          {identities.map((identity) => (
            <li key={identity.providerId} className="list-row" data-identity={identity.providerId}>
              <div>
                {/* The address is the provider's claim, as it sent it: shown by the rule of untrusted labels. */}
                <strong><ShownLabel text={identity.providerName} hint={t("common.hiddenCharacters")} dir="auto" /></strong>
                {identity.email ? <div className="muted small"><ShownLabel text={identity.email} hint={t("common.hiddenCharacters")} /></div> : null}
              </div>
              {remove(`identities/${encodeURIComponent(identity.providerId)}/delete`, t("sso.account.unlink"), shownLabel(identity.providerName))}
            </li>
          ))}
        </ul>
      )}
      {canEdit ? (
        <div>
          <ModalDetails summary={t("users.secure.title")} summaryClass="btn btn-danger" title={t("users.secure.title")} open={error?.field === "password"}>
            <form method="post" action={`/user/${userId}/secure`} className="stack">
              <p>{t("users.secure.intro")}</p>
              <PasswordInput name="password" label={t("users.newPassword")} autoComplete="new-password" required={!hasPassword} errors={errors} />
              <p className="muted small">{t("users.secure.passwordHint")}</p>
              <label className="check-row">
                <input type="checkbox" name="deleteClients" />
                <span>{t("users.secure.deleteClients")}</span>
              </label>
              <label className="check-row">
                <input type="checkbox" name="ack" required />
                <span>{t("users.signIn.ack")}</span>
              </label>
              <ConfirmActions cancel={t("common.cancel")} confirm={t("users.secure.title")} />
            </form>
          </ModalDetails>
        </div>
      ) : null}
    </section>
  );
}
