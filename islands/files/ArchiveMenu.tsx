// An archive's name, clicked: archives are not opened in the editor, so instead of a
// refusal the file manager offers what can be done with one: extract it (asking where) or
// download it.
import { shownName } from "../../core/files/shown-name";
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { download as downloadIcon } from "../lib/icons";
import { unarchive } from "./icons";
import { Overlay } from "./Overlay";

export interface ArchiveMenuProps {
  name: string;
  /** the archive's download address */
  url: string;
  /** extracting is offered (putServerFiles, and a kind the node unpacks) */
  canExtract: boolean;
  onExtract: () => void;
  onClose: () => void;
}

export function ArchiveMenu({ name: own, url, canExtract, onExtract, onClose }: ArchiveMenuProps) {
  const t = useT();
  const name = shownName(own);
  return (
    <Overlay title={name} label={t("files.archiveMenu", { name })} onClose={onClose} className="files-archive-menu" testId="files-archive-menu">
      <p className="muted small">{t("files.archiveMenuText")}</p>
      <div className="stack files-archive-actions">
        {canExtract ? (
          <button type="button" className="btn btn-primary" data-archive-action="extract" autoFocus onClick={onExtract}>
            <Icon path={unarchive} size={20} />
            <span>{t("files.extractEllipsis")}</span>
          </button>
        ) : null}
        <a className="btn" href={url} download={name} data-archive-action="download" onClick={onClose}>
          <Icon path={downloadIcon} size={20} />
          <span>{t("files.download")}</span>
        </a>
      </div>
    </Overlay>
  );
}
