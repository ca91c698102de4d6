// The node's backup targets on its page (for holders of nodes.edit): the node's own disk,
// and a form each for an SFTP server and an S3-compatible bucket. Secrets are never shown: the
// form says whether one is set, and leaving it empty keeps it.
import type { TargetView } from "../../core/backups";
import { usePage } from "../context";
import { Alert } from "./Alert";

export function BackupTargetsCard({ nodeId, targets, error }: { nodeId: number; targets: TargetView[] | null; error?: string }) {
  const { t } = usePage();
  const base = `/node/${nodeId}/backup-targets`;
  return (
    <section className="card stack" data-testid="backup-targets" id="backup-targets">
      <h2>{t("backupTargets.title")}</h2>
      <p className="muted small">{t("backupTargets.intro")}</p>
      {error ? <Alert kind="error">{error}</Alert> : null}
      {targets ? (
        <div className="backup-targets">
          {targets.map((target) => (
            <div key={target.kind} className="backup-target stack" data-testid={`backup-target-${target.kind}`}>
              <h3>
                {t(`backups.target.${target.kind}`)}
                <span className={target.configured ? "badge badge-on" : "badge"}>{t(target.configured ? "backupTargets.configured" : "backupTargets.notConfigured")}</span>
              </h3>
              {target.kind === "sftp" ? (
                <form method="post" action={`${base}/sftp`} className="stack">
                  <Field name="host" label={t("backupTargets.host")} value={target.host} required />
                  <Field name="port" label={t("backupTargets.port")} value={String(target.port)} type="number" />
                  <Field name="user" label={t("backupTargets.user")} value={target.user} required />
                  <Field name="path" label={t("backupTargets.path")} value={target.path} required />
                  <label className="field">
                    <span className="field-label">{t("backupTargets.privateKey")}</span>
                    <textarea name="privateKey" rows={3} className="backups-ignore" autoComplete="off" spellCheck={false} />
                    {target.privateKeySet ? <span className="field-hint">{t("backupTargets.secretSet")}</span> : null}
                  </label>
                  <RepositoryPassword />
                  <Actions base={`${base}/sftp`} configured={target.configured} />
                </form>
              ) : target.kind === "s3" ? (
                <form method="post" action={`${base}/s3`} className="stack">
                  <Field name="endpoint" label={t("backupTargets.endpoint")} value={target.endpoint} required />
                  <Field name="bucket" label={t("backupTargets.bucket")} value={target.bucket} required />
                  <Field name="path" label={t("backupTargets.path")} value={target.path} />
                  <Field name="region" label={t("backupTargets.region")} value={target.region} />
                  <Field name="accessKeyId" label={t("backupTargets.accessKeyId")} value={target.accessKeyId} required />
                  <label className="field">
                    <span className="field-label">{t("backupTargets.secretAccessKey")}</span>
                    <input type="password" name="secretAccessKey" autoComplete="new-password" />
                    {target.secretAccessKeySet ? <span className="field-hint">{t("backupTargets.secretSet")}</span> : null}
                  </label>
                  <label className="field">
                    <span className="field-label">{t("backupTargets.caCert")}</span>
                    <textarea name="caCert" rows={2} className="backups-ignore" spellCheck={false} />
                    <span className="field-hint">{t(target.caCertSet ? "backupTargets.caCertSet" : "backupTargets.caCertHint")}</span>
                  </label>
                  <RepositoryPassword />
                  <Actions base={`${base}/s3`} configured={target.configured} />
                </form>
              ) : null}
              {target.configured ? <Recovery base={`${base}/${target.kind}`} /> : null}
            </div>
          ))}
        </div>
      ) : null}
    </section>
  );
}

function Field({ name, label, value, required, type = "text" }: { name: string; label: string; value: string; required?: boolean; type?: string }) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input type={type} name={name} defaultValue={value} required={required} autoComplete="off" />
    </label>
  );
}

function RepositoryPassword() {
  const { t } = usePage();
  return (
    <label className="field">
      <span className="field-label">{t("backupTargets.repositoryPassword")}</span>
      <input type="password" name="repositoryPassword" autoComplete="new-password" minLength={16} maxLength={256} />
      <span className="field-hint">{t("backupTargets.repositoryPasswordHint")}</span>
    </label>
  );
}

/** The repository's password to keep elsewhere, and rebuilding this node's servers from the target. */
function Recovery({ base }: { base: string }) {
  const { t } = usePage();
  return (
    <div className="row-actions backup-recovery">
      <a className="btn btn-small" href={`${base}/password`} download data-testid="backup-target-password">{t("backupTargets.password")}</a>
      <form method="post" action={`${base}/recover`}>
        <button type="submit" className="btn btn-small" title={t("backupTargets.recoverHint")} data-testid="backup-target-recover">{t("backupTargets.recover")}</button>
      </form>
    </div>
  );
}

function Actions({ base, configured }: { base: string; configured: boolean }) {
  const { t } = usePage();
  return (
    <div className="row-actions">
      <button type="submit" className="btn">{t("backupTargets.save")}</button>
      {configured ? (
        <button type="submit" formAction={`${base}/delete`} formNoValidate className="btn btn-danger-text">{t("backupTargets.remove")}</button>
      ) : null}
    </div>
  );
}
