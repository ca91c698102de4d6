// Backups tab (needs the `backups` flag): what is running (an island that follows it;
// a refresh link without script, and the console says more), Back up now, the server's backups with who made them, what each added
// and holds, and per backup Restore (behind a confirmation, whole or one path), Download (.tar.gz
// or .zip, streamed through the panel), Lock or Unlock, and Delete (not while locked). Then the
// ignore patterns. A backup takes a note when it is made, shown beside it; restoring one path can
// browse the backup's folders (?browse=<id>&path=…) and restore a file or folder from there. A
// backup made before the node recorded whose files it holds is marked and offers neither restore
// nor download; an administrator adopts it.
// Plain forms and links throughout: it works without script.
import { BACKUP_NOTE_MAX, CHANGE_BACKUPS_KEPT, type BackupActivity, type BackupEntry, type BackupFolder } from "../../../core/backups";
import { crumbs, joinPath } from "../../../core/files";
import { BY_TASK_PREFIX, BY_USER_PREFIX } from "../../../core/activity/property-values";
import { formPath } from "../../../core/files/form-name";
import { shownName } from "../../../core/files/shown-name";
import { FileName } from "../../../islands/files/FileName";
import { formatBytes } from "../../../core/units";
import { usePage } from "../../context";
import { Island } from "../../components/Island";
import BackupProgress from "../../../islands/BackupProgress";
import { ConfirmActions, ModalDetails } from "../../components/Modal";
import { RelativeTime } from "../../components/RelativeTime";

/** A folder of one backup being browsed to pick what to restore, or why it could not be read. */
export interface BackupBrowse {
  backup: string;
  path: string;
  folder?: BackupFolder;
  error?: string;
}

export interface BackupsTabProps {
  serverId: string;
  backups: BackupEntry[];
  running: BackupActivity | null;
  ignore: string[];
  browse?: BackupBrowse;
  /** The viewer is an administrator, who may adopt a backup made before owners were recorded. */
  adopts?: boolean;
}

export function BackupsTab({ serverId, backups, running, ignore, browse, adopts = false }: BackupsTabProps) {
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
          <form method="post" action={base} className="backups-create">
            <label className="field">
              <span className="sr-only">{t("backups.note")}</span>
              <input type="text" name="note" maxLength={BACKUP_NOTE_MAX} placeholder={t("backups.notePlaceholder")} dir="auto" autoComplete="off" data-testid="backup-note" />
            </label>
            <button type="submit" className="btn btn-primary" disabled={running !== null} data-testid="backup-create">{t("backups.create")}</button>
          </form>
        </div>
        {browse ? <BackupBrowser serverId={serverId} browse={browse} shortId={backups.find((b) => b.id === browse.backup)?.shortId ?? browse.backup.slice(0, 8)} /> : null}
        {running ? <Island island={BackupProgress} props={{ serverId, running }} /> : null}
        {backups.length === 0 ? (
          <p className="muted" data-testid="backups-empty">{t("backups.none")}</p>
        ) : (
          <ul className="list backups-list">
            {backups.map((backup) => (
              <BackupRow key={backup.id} base={base} serverId={serverId} backup={backup} adopts={adopts} />
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

function BackupRow({ base, serverId, backup, adopts }: { base: string; serverId: string; backup: BackupEntry; adopts: boolean }) {
  const { t } = usePage();
  const action = `${base}/${backup.id}`;
  const download = (format: string) => `/proxy/daemon/server/${serverId}/backups/${backup.id}/download?format=${format}`;
  const bytes = (n: number | null) => (n === null ? t("backups.unknown") : formatBytes(n, "binary", 1, t.locale));
  const by = backup.by.startsWith(BY_TASK_PREFIX) ? t("backups.byTask", { name: backup.by.slice(BY_TASK_PREFIX.length) }) : backup.by.startsWith(BY_USER_PREFIX) ? backup.by.slice(BY_USER_PREFIX.length) : t("backups.unknown");
  return (
    <li className="list-row backup-row" data-testid="backup" data-backup-id={backup.id}>
      <div className="backup-text">
        <strong>
          <RelativeTime at={Date.parse(backup.time)} /> <code className="muted small">{backup.shortId}</code>
          {backup.locked ? <span className="badge badge-warn" data-testid="backup-locked">{t("backups.lockedBadge")}</span> : null}
          {backup.unowned ? <span className="badge badge-warn" data-testid="backup-unowned">{t("backups.unownedBadge")}</span> : null}
          {backup.beforeChange ? (
            <span className="badge" title={t("backups.beforeChangeHint", { max: CHANGE_BACKUPS_KEPT })} data-testid="backup-before-change">
              {t("backups.beforeChangeBadge")}
            </span>
          ) : null}
        </strong>
        {backup.unowned ? <span className="muted small">{t("backups.unownedHint")}</span> : null}
        {backup.note ? (
          <span className="backup-note" dir="auto" data-testid="backup-note-text">
            {backup.note}
          </span>
        ) : null}
        <span className="muted small">
          {t("backups.added")} {bytes(backup.added)} · {t("backups.total")} {bytes(backup.total)} · {t("backups.by")} {by}
        </span>
      </div>
      <div className="backup-actions">
        {backup.unowned ? (
          adopts ? (
            <form method="post" action={`${action}/adopt`}>
              <button type="submit" className="btn btn-small" data-testid="backup-adopt">{t("backups.adopt")}</button>
            </form>
          ) : null
        ) : (
          <>
            <ModalDetails summary={t("backups.restore")} summaryClass="btn btn-small" title={t("backups.restoreTitle", { id: backup.shortId })} testId="backup-restore">
              <form method="post" action={`${action}/restore`} className="stack">
                <p>{t("backups.restoreConfirm")}</p>
                <label className="field">
                  <span className="field-label">{t("backups.restorePath")}</span>
                  <input type="text" name="path" maxLength={4096} placeholder="world/level.dat" />
                  <span className="field-hint">{t("backups.restorePathHint")}</span>
                </label>
                <p>
                  <a href={browseUrl(serverId, backup.id, "")} data-testid="backup-browse">{t("backups.browse")}</a>
                </p>
                <ConfirmActions cancel={t("common.cancel")} confirm={t("backups.restore")} />
              </form>
            </ModalDetails>
            <a className="btn btn-small" href={download("tar.gz")} download data-testid="backup-download">{t("backups.download")} .tar.gz</a>
            <a className="btn btn-small" href={download("zip")} download>.zip</a>
          </>
        )}
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

const browseUrl = (serverId: string, backup: string, path: string) => `/server/${serverId}?tab=backups&browse=${encodeURIComponent(backup)}&path=${encodeURIComponent(path)}#backup-browser`;

/**
 * One folder of a backup: its folders open the next one, and each entry has Restore, which puts
 * that file or folder back in place (what is there now is replaced; the server runs on).
 */
function BackupBrowser({ serverId, browse, shortId }: { serverId: string; browse: BackupBrowse; shortId: string }) {
  const { t } = usePage();
  const action = `/server/${serverId}/backups/${browse.backup}/restore`;
  const folder = browse.folder;
  return (
    <section className="stack backup-browser" id="backup-browser" data-testid="backup-browser" aria-label={t("backups.browseTitle", { id: shortId })}>
      <div className="backup-browser-head">
        <h3>{t("backups.browseTitle", { id: shortId })}</h3>
        <a className="btn btn-small" href={`/server/${serverId}?tab=backups`}>{t("common.close")}</a>
      </div>
      <nav className="backup-crumbs small" aria-label={t("backups.browseWhere")}>
        <a href={browseUrl(serverId, browse.backup, "")}>{t("backups.browseRoot")}</a>
        {crumbs(browse.path).map((crumb) => (
          <span key={crumb.path}>
            {" / "}
            <a href={browseUrl(serverId, browse.backup, crumb.path)}>
              <FileName name={crumb.name} />
            </a>
          </span>
        ))}
      </nav>
      {browse.error ? <p className="files-field-error">{browse.error}</p> : null}
      {folder && folder.files.length === 0 ? <p className="muted">{t("backups.browseEmpty")}</p> : null}
      {folder && folder.files.length > 0 ? (
        <ul className="list backup-entries">
          {folder.files.map((entry) => {
            const path = joinPath(folder.path, entry.name);
            return (
              <li key={entry.name} className="list-row backup-entry" data-entry={entry.name} data-kind={entry.isFile ? "file" : "folder"}>
                {/* Names a server's process gave: shown with visible escapes (core/files/shown-name), acted on exactly. */}
                {entry.isFile ? (
                  <FileName name={entry.name} />
                ) : (
                  <a href={browseUrl(serverId, browse.backup, path)}>
                    <FileName name={entry.name} />/
                  </a>
                )}
                <form method="post" action={action}>
                  <input type="hidden" name="entry" value={formPath(path)} />
                  <button type="submit" className="btn btn-small" data-restore-path={path} title={t("backups.restoreThisHint", { path: `/${shownName(path)}` })}>
                    {t("backups.restoreThis")}
                  </button>
                </form>
              </li>
            );
          })}
        </ul>
      ) : null}
      {folder?.truncated ? <p className="muted small">{t("backups.browseTruncated", { count: folder.files.length })}</p> : null}
    </section>
  );
}
