// Images (core/files IMAGE_EXTENSIONS) open in a viewer instead of the editor: the file's
// own address in an <img>, with a download link beside it.
import { useT } from "../lib/i18n";
import { Overlay } from "./Overlay";

export function ImageViewer({ url, name, onClose }: { url: string; name: string; onClose: () => void }) {
  const t = useT();
  return (
    <Overlay title={name} label={name} onClose={onClose} className="files-image-overlay" testId="files-image">
      <div className="files-image-frame">
        <img src={url} alt={name} />
      </div>
      <div className="dialog-actions">
        <a className="btn" href={url} download={name}>
          {t("files.download")}
        </a>
        <button type="button" className="btn btn-primary" onClick={onClose}>
          {t("common.close")}
        </button>
      </div>
    </Overlay>
  );
}
