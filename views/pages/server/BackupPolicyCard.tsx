// The backup policy on the server's admin card (administrators only): which of the
// node's targets keeps the server's backups, the retention applied after each backup, the most
// backups it may keep, and the console commands sent around a backup of a running server.
import { RETENTION_KEYS, type BackupPolicy, type TargetView } from "../../../core/backups";
import { usePage } from "../../context";

export function BackupPolicyCard({ serverId, policy, targets }: { serverId: string; policy: BackupPolicy; targets: TargetView[] }) {
  const { t } = usePage();
  return (
    <form method="post" action={`/server/${serverId}/backups/policy`} className="stack" data-testid="backup-policy">
      <h3>{t("backups.policy.title")}</h3>
      <label className="field">
        <span className="field-label">{t("backups.policy.target")}</span>
        <select name="target" defaultValue={policy.target}>
          {targets.filter((target) => target.configured).map((target) => (
            <option key={target.kind} value={target.kind}>{t(`backups.target.${target.kind}`)}</option>
          ))}
        </select>
      </label>
      <fieldset className="field">
        <legend className="field-label">{t("backups.policy.keep")}</legend>
        <div className="backup-keep">
          {RETENTION_KEYS.map((key) => (
            <label key={key} className="field">
              <span className="field-hint">{t(`backups.policy.keep.${key}`)}</span>
              <input type="number" name={`keep.${key}`} min={0} max={10000} defaultValue={policy.retention[key] ?? ""} />
            </label>
          ))}
        </div>
        <span className="field-hint">{t("backups.policy.keepHint")}</span>
      </fieldset>
      <label className="field">
        <span className="field-label">{t("backups.policy.max")}</span>
        <input type="number" name="maxBackups" min={0} max={10000} defaultValue={policy.maxBackups} />
        <span className="field-hint">{t("backups.policy.maxHint")}</span>
      </label>
      <label className="field">
        <span className="field-label">{t("backups.policy.before")}</span>
        <textarea name="before" rows={2} defaultValue={policy.before.join("\n")} className="backups-ignore" />
      </label>
      <label className="field">
        <span className="field-label">{t("backups.policy.after")}</span>
        <textarea name="after" rows={2} defaultValue={policy.after.join("\n")} className="backups-ignore" />
        <span className="field-hint">{t("backups.policy.commandsHint")}</span>
      </label>
      <div><button type="submit" className="btn">{t("backups.policy.save")}</button></div>
    </form>
  );
}
