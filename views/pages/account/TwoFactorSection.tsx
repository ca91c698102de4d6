// The two-factor part of the Account screen: switch on (QR code, key, first code, or cancel),
// and once on: the recovery codes left, new recovery codes, switch off. Plain forms throughout.
import { usePage } from "../../context";
import { PasswordInput } from "../../components/PasswordInput";
import { ConfirmActions, ModalDetails } from "../../components/Modal";
import type { FormErrors } from "../../components/form-errors";

/** Below this many unused recovery codes the section says to make new ones. */
const FEW_CODES_LEFT = 3;

export interface TwoFactorSectionProps {
  enabled: boolean;
  enrolment?: { secret: string; img: string } | null;
  codesLeft: number;
  /** whether switching on asks the current password (an account a provider made has none) */
  hasPassword: boolean;
  /** the error display of one of the section's forms (confirm, recovery, disable) */
  errorsOf(form: string, fields: string[]): FormErrors;
}

export function TwoFactorSection({ enabled, enrolment, codesLeft, hasPassword, errorsOf }: TwoFactorSectionProps) {
  const { t } = usePage();
  if (enabled) {
    const recovery = errorsOf("recovery", ["password", "token"]);
    const disable = errorsOf("disable", ["token"]);
    return (
      <>
        <p><span className="badge badge-on">{t("account.otp.enabled")}</span></p>
        <div className="stack recovery-status">
          <p data-testid="recovery-left">{t("account.recovery.left", { count: codesLeft })}</p>
          {codesLeft <= FEW_CODES_LEFT ? <p className="alert alert-warning">{t("account.recovery.few")}</p> : null}
          {recovery.alert}
          <div>
            <ModalDetails summary={t("account.recovery.regenerate")} title={t("account.recovery.regenerate")} testId="regenerate-recovery" open={recovery.alert !== null || recovery.input("password")["aria-invalid"] || recovery.input("token")["aria-invalid"]}>
              <form method="post" action="/account/otp/recovery" className="stack">
                <p>{t("account.recovery.regenerateHint")}</p>
                <PasswordInput name="password" label={t("account.currentPassword")} autoComplete="current-password" required={false} errors={recovery} />
                <label className="field">
                  <span className="field-label">{t("account.recovery.orCode")}</span>
                  <input type="text" name="token" inputMode="numeric" autoComplete="one-time-code" maxLength={6} className="otp-input" {...recovery.input("token")} />
                  {recovery.message("token")}
                </label>
                <ConfirmActions cancel={t("common.cancel")} confirm={t("account.recovery.regenerateSubmit")} kind="primary" />
              </form>
            </ModalDetails>
          </div>
        </div>
        {disable.alert}
        <form method="post" action="/account/otp/disable" className="stack">
          <label className="field">
            <span className="field-label">{t("account.otp.disableHint")}</span>
            {/* A recovery code is accepted here too, so letters are allowed. */}
            <input type="text" name="token" autoComplete="one-time-code" maxLength={32} required className="otp-input" {...disable.input("token")} />
            {disable.message("token")}
          </label>
          <div><button type="submit" className="btn btn-danger">{t("account.otp.disable")}</button></div>
        </form>
      </>
    );
  }
  if (enrolment) {
    const confirm = errorsOf("confirm", ["token", "password"]);
    return (
      <>
        <form method="post" action="/account/otp/confirm" className="stack">
          <p className="muted">{t("account.otp.scan")}</p>
          <img className="qr" src={enrolment.img} alt="" width={220} height={220} />
          <p className="small">
            {t("account.otp.secret")}: <code data-testid="otp-secret">{enrolment.secret}</code>
          </p>
          {confirm.alert}
          <label className="field">
            <span className="field-label">{t("auth.otp.code")}</span>
            <input type="text" name="token" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required className="otp-input" autoFocus {...confirm.input("token")} />
            {confirm.message("token")}
          </label>
          {hasPassword ? <PasswordInput name="password" label={t("account.currentPassword")} autoComplete="current-password" errors={confirm} /> : null}
          <div className="dialog-actions start">
            {/* Enter in the code field presses the form's first submit button, and Cancel comes
                first on screen: so Cancel belongs to a form of its own (which also needs no code). */}
            <button type="submit" form="otp-cancel" className="btn">{t("account.otp.cancel")}</button>
            <button type="submit" className="btn btn-primary">{t("account.otp.confirm")}</button>
          </div>
        </form>
        <form method="post" action="/account/otp/cancel" id="otp-cancel" hidden />
      </>
    );
  }
  const start = errorsOf("start", []);
  return (
    <>
      {start.alert}
      <p className="muted">{t("account.otp.disabled")}</p>
      <form method="post" action="/account/otp/start">
        <button type="submit" className="btn btn-primary">{t("account.otp.enable")}</button>
      </form>
    </>
  );
}
