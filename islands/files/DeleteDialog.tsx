// The delete confirmation overlay (deleting a file needs confirmation), for one
// entry or a selection of several, which it names.
import { useState } from "react";
import { useT } from "../lib/i18n";
import { shownName } from "../../core/files/shown-name";
import { FileName } from "./FileName";
import { Overlay } from "./Overlay";

export function DeleteDialog({ names, folder, onConfirm, onClose }: { names: string[]; folder: boolean; onConfirm: () => Promise<void>; onClose: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const one = names.length === 1;
  const title = one ? t("files.deleteTitle", { name: shownName(names[0]!) }) : t("files.deleteManyTitle", { count: names.length });
  return (
    <Overlay title={title} label={title} onClose={onClose} className="files-delete-overlay" testId="files-delete-dialog">
      <p>{one ? t(folder ? "files.deleteFolder" : "files.deleteFile", { name: shownName(names[0]!) }) : t("files.deleteMany", { count: names.length })}</p>
      {one ? null : (
        <ul className="files-name-list">
          {names.map((name) => (
            <li key={name}>
              <FileName name={name} />
            </li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" autoFocus onClick={onClose}>
          {t("common.cancel")}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          data-confirm-delete=""
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await onConfirm();
            } finally {
              setBusy(false);
            }
          }}
        >
          {t("common.delete")}
        </button>
      </div>
    </Overlay>
  );
}
