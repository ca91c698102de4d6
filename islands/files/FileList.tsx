// The folder's entries as a table: a box to select each (for the selection bar), name (a link:
// folders open, files download without script), size, permissions, modification time, and the
// per-item actions: edit or view, extract, download, archive (folders), delete,
// and in the row's menu rename, move, copy and permissions. The '..' entry has none.
// Every action is a submit button of the file manager's form (name "row", value
// "<action>:<name>"), so it works without script through the panel's form route; the island
// takes the click over once hydrated. Actions that need putServerFiles are not rendered without it.
import type { MouseEvent } from "react";
import { isArchive, isExtractable, isImage, joinPath, parentPath, type FileEntry } from "../../core/files";
import { formatBytes } from "../../core/units";
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { download as downloadIcon, eye, pencil, trash } from "../lib/icons";
import { archive as archiveIcon, arrowUpward, file as fileIcon, folder as folderIcon, image as imageIcon, moreVert, unarchive } from "./icons";
import { fileUrl } from "./file-api";
import { formatMode, formatTime } from "./listing";
import { filesPageUrl } from "../../core/files/page-urls";
import { shownName } from "../../core/files/shown-name";
import { formName } from "../../core/files/form-name";
import { FileName } from "./FileName";

export interface FileListProps {
  serverId: string;
  path: string;
  /** the folder as people read it ("Server", "/plugins") */
  folderLabel: string;
  files: FileEntry[];
  canEdit: boolean;
  /** false on the server and until hydrated: times are shown in UTC then, and script-only controls are left out */
  local: boolean;
  /** actions are refused while something else runs */
  busy: boolean;
  selected: ReadonlySet<string>;
  onSelect: (names: string[], on: boolean) => void;
  onOpenFolder: (path: string) => void;
  onOpenFile: (entry: FileEntry) => void;
}

/** A plain click we handle; a click with a modifier (new tab, download) stays the browser's. */
const plainClick = (e: MouseEvent) => e.button === 0 && !e.ctrlKey && !e.metaKey && !e.shiftKey && !e.altKey;

function entryIcon(entry: FileEntry): string {
  if (!entry.isFile) return folderIcon;
  if (isImage(entry.name)) return imageIcon;
  if (isArchive(entry.name)) return archiveIcon;
  return fileIcon;
}

export function FileList({ serverId, path, folderLabel, files, canEdit, local, busy, selected, onSelect, onOpenFolder, onOpenFile }: FileListProps) {
  const t = useT();
  const parent = parentPath(path);
  const all = files.length > 0 && files.every((f) => selected.has(f.name));
  return (
    <table className="data-table files-table">
      <caption className="sr-only">{t("files.list", { folder: folderLabel })}</caption>
      <thead>
        <tr>
          <th scope="col" className="files-col-pick">
            {local && files.length > 0 ? <input type="checkbox" data-action="select-all" checked={all} aria-label={t("files.selectAll")} onChange={(e) => onSelect(files.map((f) => f.name), e.target.checked)} /> : <span className="sr-only">{t("files.select")}</span>}
          </th>
          <th scope="col">{t("files.name")}</th>
          <th scope="col" className="files-col-size">
            {t("files.size")}
          </th>
          <th scope="col" className="files-col-mode">
            {t("files.permissions")}
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
            <td className="files-col-pick" />
            <td className="files-col-name">
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
            {/* Cells of their own, not one spanning them: the columns a phone hides must not shift the rest. */}
            <td className="files-col-size" />
            <td className="files-col-mode" />
            <td className="files-col-time" />
            <td className="files-col-actions" />
          </tr>
        ) : null}
        {files.map((entry) => (
          <Row key={`${entry.isFile ? "f" : "d"}:${entry.name}`} {...{ serverId, path, entry, canEdit, local, busy, selected, onSelect, onOpenFolder, onOpenFile }} />
        ))}
      </tbody>
    </table>
  );
}

type RowProps = Omit<FileListProps, "files" | "folderLabel"> & { entry: FileEntry };

function Row({ serverId, path, entry, canEdit, local, busy, selected, onSelect, onOpenFolder, onOpenFile }: RowProps) {
  const t = useT();
  const full = joinPath(path, entry.name);
  const url = entry.isFile ? fileUrl(serverId, full) : filesPageUrl(serverId, full);
  const image = entry.isFile && isImage(entry.name);
  const archive = entry.isFile && isArchive(entry.name);
  const label = (key: string) => `${t(key)}: ${shownName(entry.name)}`;
  const time = formatTime(entry.modifyTime, !local, t.locale);
  const viewOnly = image || !canEdit;
  /** A submit button of the file manager's form acting on this row. */
  const act = (action: string, key: string, icon: string, className = "icon-btn") => (
    <button type="submit" name="row" value={`${action}:${formName(entry.name)}`} className={className} data-action={action} disabled={busy} title={label(key)} aria-label={label(key)}>
      <Icon path={icon} size={18} />
    </button>
  );
  const menuItem = (action: string, key: string, className = "menu-row") => (
    <button type="submit" name="row" value={`${action}:${formName(entry.name)}`} className={className} data-action={action} disabled={busy}>
      <span>{t(key)}</span>
    </button>
  );
  return (
    <tr className={selected.has(entry.name) ? "files-row is-selected" : "files-row"} data-name={entry.name} data-kind={entry.isFile ? "file" : "folder"}>
      <td className="files-col-pick">
        <input type="checkbox" name="pick" value={formName(entry.name)} checked={selected.has(entry.name)} aria-label={label("files.select")} onChange={(e) => onSelect([entry.name], e.target.checked)} />
      </td>
      <td className="files-col-name">
        <a
          className="files-name"
          href={url}
          download={entry.isFile ? shownName(entry.name) : undefined}
          onClick={(e) => {
            if (!plainClick(e)) return;
            e.preventDefault();
            if (entry.isFile) onOpenFile(entry);
            else onOpenFolder(full);
          }}
        >
          <Icon path={entryIcon(entry)} size={20} />
          <FileName name={entry.name} />
        </a>
      </td>
      <td className="files-col-size">{entry.isFile ? formatBytes(entry.size, "decimal", 1, t.locale) : <span className="muted">{t("files.folder")}</span>}</td>
      <td className="files-col-mode">{entry.mode === undefined ? null : <code title={formatMode(entry.mode, true)}>{formatMode(entry.mode, false)}</code>}</td>
      <td className="files-col-time">{time ? <time dateTime={new Date(entry.modifyTime * 1000).toISOString()}>{time}</time> : null}</td>
      <td className="files-col-actions">
        <div className="files-row-actions" role="group" aria-label={t("files.actions", { name: entry.name })}>
          {/* Opening in the editor or viewer needs script; without it the name's link downloads. */}
          {local && entry.isFile && !archive ? (
            <button type="button" className="icon-btn" data-action={viewOnly ? "view" : "edit"} title={label(viewOnly ? "files.view" : "files.edit")} aria-label={label(viewOnly ? "files.view" : "files.edit")} onClick={() => onOpenFile(entry)}>
              <Icon path={viewOnly ? eye : pencil} size={18} />
            </button>
          ) : null}
          {canEdit && entry.isFile && isExtractable(entry.name) ? act("extract", "files.extract", unarchive) : null}
          {entry.isFile ? (
            <a className="icon-btn" data-action="download" href={url} download={entry.name} title={label("files.download")} aria-label={label("files.download")}>
              <Icon path={downloadIcon} size={18} />
            </a>
          ) : null}
          {canEdit && !entry.isFile ? act("archive", "files.archive", archiveIcon) : null}
          {canEdit ? act("delete", "files.delete", trash, "icon-btn files-delete") : null}
          {canEdit ? (
            <details className="menu files-row-menu">
              <summary className="icon-btn" data-action="more" title={label("files.more")} aria-label={label("files.more")}>
                <Icon path={moreVert} size={18} />
              </summary>
              <div className="menu-panel">
                {menuItem("rename", "files.rename")}
                {menuItem("move", "files.move")}
                {menuItem("copy", "files.copy")}
                {menuItem("mode", "files.changePermissions")}
                {/* On a phone the row's own delete button gives way to this one (files.css), to leave the name room. */}
                {menuItem("delete", "files.delete", "menu-row files-menu-delete")}
              </div>
            </details>
          ) : null}
        </div>
      </td>
    </tr>
  );
}
