// Two-factor recovery codes just made, shown once: the list, a download as a .txt
// file (a data: link, so it works without script and the codes are never stored readable), and a
// copy button when script runs. Closing goes back to the account page, where they are gone.
import { usePage } from "../context";
import { OpenModal } from "./Modal";
import { CopyButton } from "./CopyButton";

export function RecoveryCodesDialog({ codes, email }: { codes: string[]; email: string }) {
  const { t } = usePage();
  const text = `${t("account.recovery.fileHeading", { email })}\n\n${codes.join("\n")}\n`;
  return (
    <OpenModal title={t("account.recovery.title")} id="recovery-codes">
      <p className="alert alert-warning">{t("account.recovery.once")}</p>
      <ol className="recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}><code>{code}</code></li>
        ))}
      </ol>
      <div className="recovery-actions">
        <a className="btn" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="kiln-recovery-codes.txt" data-testid="download-recovery">
          {t("account.recovery.download")}
        </a>
        <CopyButton value={codes.join("\n")} what={t("account.recovery.codes")} />
      </div>
      <div className="dialog-actions">
        <a className="btn btn-primary" href="/account#otp">{t("account.recovery.saved")}</a>
      </div>
    </OpenModal>
  );
}
