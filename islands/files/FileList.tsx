// The folder's entries as a table: name (a link: folders open, files download without script),
// size, modification time, and the per-item actions (spec section 2): edit or view, extract,
// download, archive (folders), delete. The '..' entry has no delete or archive. Actions that need
// putServerFiles are not rendered without it.
import type { MouseEvent } from "react";
import { isArchive, isExtractable, isImage, joinPath, parentPath, type FileEntry } from "../../core/files";
import { formatBytes } from "../../core/units";
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { download as downloadIcon, eye, pencil, trash } from "../lib/icons";
import { archive as archiveIcon, arrowUpward, file as fileIcon, folder as folderIcon, image as imageIcon, unarchive } from "./icons";
import { fileUrl } from "./file-api";
import { filesPageUrl, formatTime } from "./listing";

export interface FileListProps {
  serverId: string;
  path: string;
  /** the folder as people read it ("Server", "/plugins") */
  folderLabel: string;
  files: FileEntry[];
  canEdit: boolean;
  /** false on the server and until hydrated: times are shown in UTC then */
  local: boolean;
  /** actions are refused while something else runs */
  busy: boolean;
  onOpenFolder: (path: string) => void;
  onOpenFile: (entry: FileEntry) => void;
  onExtract: (entry: FileEntry) => void;
  onArchive: (entry: FileEntry) => void;
  onDelete: (entry: FileEntry) => void;
}

/** A plain click we handle; a click with a modifier (new tab, download) stays the browser's. */
const plainClick = (e: MouseEvent) => e.button === 0 && !e.ctrlKey && !e.metaKey && !e.shiftKey && !e.altKey;

function entryIcon(entry: FileEntry): string {
  if (!entry.isFile) return folderIcon;
  if (isImage(entry.name)) return imageIcon;
  if (isArchive(entry.name)) return archiveIcon;
  return fileIcon;
}

export function FileList({ serverId, path, folderLabel, files, canEdit, local, busy, onOpenFolder, onOpenFile, onExtract, onArchive, onDelete }: FileListProps) {
  const t = useT();
  const parent = parentPath(path);
  return (
    <table className="data-table files-table">
      <caption className="sr-only">{t("files.list", { folder: folderLabel })}</caption>
      <thead>
        <tr>
          <th scope="col">{t("files.name")}</th>
          <th scope="col" className="files-col-size">
            {t("files.size")}
          </th>
          <th scope="col" className="files-col-time">
            {t("files.modified")}
          </th>
          <th scope="col" className="files-col-actions">
            <span className="sr-only">{t("files.actionsColumn")}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {path !== "" ? (
          <tr className="files-row files-parent" data-name="..">
            <td colSpan={4}>
              <a
                className="files-name"
                href={filesPageUrl(serverId, parent)}
                title={t("files.parent")}
                onClick={(e) => {
                  if (!plainClick(e)) return;
                  e.preventDefault();
                  onOpenFolder(parent);
                }}
              >
                <Icon path={arrowUpward} size={20} />
                <span>..</span>
              </a>
            </td>
          </tr>
        ) : null}
        {files.map((entry) => (
          <Row key={`${entry.isFile ? "f" : "d"}:${entry.name}`} {...{ serverId, path, entry, canEdit, local, busy, onOpenFolder, onOpenFile, onExtract, onArchive, onDelete }} />
        ))}
      </tbody>
    </table>
  );
}

type RowProps = Omit<FileListProps, "files" | "folderLabel"> & { entry: FileEntry };

function Row({ serverId, path, entry, canEdit, local, busy, onOpenFolder, onOpenFile, onExtract, onArchive, onDelete }: RowProps) {
  const t = useT();
  const full = joinPath(path, entry.name);
  const url = entry.isFile ? fileUrl(serverId, full) : filesPageUrl(serverId, full);
  const image = entry.isFile && isImage(entry.name);
  const archive = entry.isFile && isArchive(entry.name);
  const action = (label: string) => `${label}: ${entry.name}`;
  const time = formatTime(entry.modifyTime, !local);
  return (
    <tr className="files-row" data-name={entry.name} data-kind={entry.isFile ? "file" : "folder"}>
      <td className="files-col-name">
        <a
          className="files-name"
          href={url}
          download={entry.isFile ? entry.name : undefined}
          onClick={(e) => {
            if (!plainClick(e)) return;
            e.preventDefault();
            if (entry.isFile) onOpenFile(entry);
            else onOpenFolder(full);
          }}
        >
          <Icon path={entryIcon(entry)} size={20} />
          <span>{entry.name}</span>
        </a>
      </td>
      <td className="files-col-size">{entry.isFile ? formatBytes(entry.size, "decimal", 1) : <span className="muted">{t("files.folder")}</span>}</td>
      <td className="files-col-time">{time ? <time dateTime={new Date(entry.modifyTime * 1000).toISOString()}>{time}</time> : null}</td>
      <td className="files-col-actions">
        <div className="files-row-actions" role="group" aria-label={t("files.actions", { name: entry.name })}>
          {entry.isFile && !archive ? (
            <button type="button" className="icon-btn" data-action={image || !canEdit ? "view" : "edit"} title={action(t(image || !canEdit ? "files.view" : "files.edit"))} aria-label={action(t(image || !canEdit ? "files.view" : "files.edit"))} onClick={() => onOpenFile(entry)}>
              <Icon path={image || !canEdit ? eye : pencil} size={18} />
            </button>
          ) : null}
          {canEdit && entry.isFile && isExtractable(entry.name) ? (
            <button type="button" className="icon-btn" data-action="extract" disabled={busy} title={action(t("files.extract"))} aria-label={action(t("files.extract"))} onClick={() => onExtract(entry)}>
              <Icon path={unarchive} size={18} />
            </button>
          ) : null}
          {entry.isFile ? (
            <a className="icon-btn" data-action="download" href={url} download={entry.name} title={action(t("files.download"))} aria-label={action(t("files.download"))}>
              <Icon path={downloadIcon} size={18} />
            </a>
          ) : null}
          {canEdit && !entry.isFile ? (
            <button type="button" className="icon-btn" data-action="archive" disabled={busy} title={action(t("files.archive"))} aria-label={action(t("files.archive"))} onClick={() => onArchive(entry)}>
              <Icon path={archiveIcon} size={18} />
            </button>
          ) : null}
          {canEdit ? (
            <button type="button" className="icon-btn files-delete" data-action="delete" disabled={busy} title={action(t("files.delete"))} aria-label={action(t("files.delete"))} onClick={() => onDelete(entry)}>
              <Icon path={trash} size={18} />
            </button>
          ) : null}
        </div>
      </td>
    </tr>
  );
}
