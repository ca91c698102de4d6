// Backups tab (issue 20; needs the `backups` flag): what is running (an island that follows it;
// a refresh link without script, and the console says more), Back up now, the server's backups with who made them, what each added
// and holds, and per backup Restore (behind a confirmation, whole or one path), Download (.tar.gz
// or .zip, streamed through the panel), Lock or Unlock, and Delete (not while locked). Then the
// ignore patterns. Plain forms and links throughout: it works without script.
import type { BackupActivity, BackupEntry } from "../../../core/backups";
import { formatBytes } from "../../../core/units";
import { usePage } from "../../context";
import { Island } from "../../components/Island";
import BackupProgress from "../../../islands/BackupProgress";
import { ConfirmActions, ModalDetails } from "../../components/Modal";
import { RelativeTime } from "../../components/RelativeTime";

export interface BackupsTabProps {
  serverId: string;
  backups: BackupEntry[];
  running: BackupActivity | null;
  ignore: string[];
}

export function BackupsTab({ serverId, backups, running, ignore }: BackupsTabProps) {
  const { t } = usePage();
  const base = `/server/${serverId}/backups`;
  return (
    <div className="stack">
      <section className="card stack" data-testid="backups">
        <div className="card-head backups-head">
          <div>
            <h2>{t("backups.title")}</h2>
            <p className="muted small">{t("backups.intro")}</p>
          </div>
          <form method="post" action={base}>
            <button type="submit" className="btn btn-primary" disabled={running !== null} data-testid="backup-create">{t("backups.create")}</button>
          </form>
        </div>
        {running ? <Island island={BackupProgress} props={{ serverId, running }} /> : null}
        {backups.length === 0 ? (
          <p className="muted" data-testid="backups-empty">{t("backups.none")}</p>
        ) : (
          <ul className="list backups-list">
            {backups.map((backup) => (
              <BackupRow key={backup.id} base={base} serverId={serverId} backup={backup} />
            ))}
          </ul>
        )}
      </section>
      <section className="card stack">
        <h2>{t("backups.ignore")}</h2>
        <form method="post" action={`${base}/ignore`} className="stack" data-testid="backup-ignore">
          <label className="field">
            <span className="sr-only">{t("backups.ignore")}</span>
            <textarea name="ignore" rows={5} spellCheck={false} defaultValue={ignore.join("\n")} className="backups-ignore" />
            <span className="field-hint">{t("backups.ignoreHint")}</span>
          </label>
          <div><button type="submit" className="btn">{t("backups.ignoreSave")}</button></div>
        </form>
      </section>
    </div>
  );
}

function BackupRow({ base, serverId, backup }: { base: string; serverId: string; backup: BackupEntry }) {
  const { t } = usePage();
  const action = `${base}/${backup.id}`;
  const download = (format: string) => `/proxy/daemon/server/${serverId}/backups/${backup.id}/download?format=${format}`;
  const bytes = (n: number | null) => (n === null ? t("backups.unknown") : formatBytes(n, "binary", 1, t.locale));
  const by = backup.by.startsWith("task:") ? t("backups.byTask", { name: backup.by.slice(5) }) : backup.by.startsWith("user:") ? backup.by.slice(5) : t("backups.unknown");
  return (
    <li className="list-row backup-row" data-testid="backup" data-backup-id={backup.id}>
      <div className="backup-text">
        <strong>
          <RelativeTime at={Date.parse(backup.time)} /> <code className="muted small">{backup.shortId}</code>
          {backup.locked ? <span className="badge badge-warn" data-testid="backup-locked">{t("backups.lockedBadge")}</span> : null}
        </strong>
        <span className="muted small">
          {t("backups.added")} {bytes(backup.added)} · {t("backups.total")} {bytes(backup.total)} · {t("backups.by")} {by}
        </span>
      </div>
      <div className="backup-actions">
        <ModalDetails summary={t("backups.restore")} summaryClass="btn btn-small" title={t("backups.restoreTitle", { id: backup.shortId })} testId="backup-restore">
          <form method="post" action={`${action}/restore`} className="stack">
            <p>{t("backups.restoreConfirm")}</p>
            <label className="field">
              <span className="field-label">{t("backups.restorePath")}</span>
              <input type="text" name="path" maxLength={4096} placeholder="world/level.dat" />
              <span className="field-hint">{t("backups.restorePathHint")}</span>
            </label>
            <ConfirmActions cancel={t("common.cancel")} confirm={t("backups.restore")} />
          </form>
        </ModalDetails>
        <a className="btn btn-small" href={download("tar.gz")} download data-testid="backup-download">{t("backups.download")} .tar.gz</a>
        <a className="btn btn-small" href={download("zip")} download>.zip</a>
        <form method="post" action={`${action}/${backup.locked ? "unlock" : "lock"}`}>
          <button type="submit" className="btn btn-small" title={t("backups.lockHint")} data-testid="backup-lock">{t(backup.locked ? "backups.unlock" : "backups.lock")}</button>
        </form>
        {backup.locked ? null : (
          <ModalDetails summary={t("backups.delete")} summaryClass="btn btn-small btn-danger-text" title={t("backups.delete")} testId="backup-delete">
            <form method="post" action={`${action}/delete`} className="stack">
              <p>{t("backups.deleteConfirm", { id: backup.shortId })}</p>
              <ConfirmActions cancel={t("common.cancel")} confirm={t("common.delete")} />
            </form>
          </ModalDetails>
        )}
      </div>
    </li>
  );
}
