// What to do with the selected entries: download them as one zip, move, copy, archive
// or delete them. Submit buttons of the file manager's form (name "do"), so without script they
// post the ticked boxes to the panel's form route; once hydrated the bar shows only while
// something is selected and the island acts itself.
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { close as closeIcon, download as downloadIcon, trash } from "../lib/icons";
import { archive as archiveIcon } from "./icons";

export interface SelectionBarProps {
  count: number;
  canEdit: boolean;
  busy: boolean;
  /** hydrated: the bar says how many are selected and can clear them */
  local: boolean;
  onClear: () => void;
}

export function SelectionBar({ count, canEdit, busy, local, onClear }: SelectionBarProps) {
  const t = useT();
  const button = (action: string, key: string, icon?: string, className = "btn") => (
    <button type="submit" name="do" value={action} className={className} data-action={`selection-${action}`} disabled={busy}>
      {icon ? <Icon path={icon} size={18} /> : null}
      <span>{t(key)}</span>
    </button>
  );
  return (
    <div className="files-selection-bar" data-testid="files-selection-bar" role="group" aria-label={t("files.selectionActions")}>
      <span className="files-selection-count">{local ? t("files.selectedCount", { count }) : t("files.selectionHint")}</span>
      {button("download", "files.download", downloadIcon)}
      {canEdit ? (
        <>
          {button("move", "files.move")}
          {button("copy", "files.copy")}
          {button("archive", "files.archive", archiveIcon)}
          {button("delete", "files.delete", trash, "btn btn-danger")}
        </>
      ) : null}
      {local ? (
        <button type="button" className="icon-btn" title={t("files.clearSelection")} aria-label={t("files.clearSelection")} onClick={onClear}>
          <Icon path={closeIcon} size={18} />
        </button>
      ) : null}
    </div>
  );
}
