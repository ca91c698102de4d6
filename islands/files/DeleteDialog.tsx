// The delete confirmation overlay (spec section 5: deleting a file needs confirmation).
import { useState } from "react";
import { useT } from "../lib/i18n";
import { Overlay } from "./Overlay";

export function DeleteDialog({ name, folder, onConfirm, onClose }: { name: string; folder: boolean; onConfirm: () => Promise<void>; onClose: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const title = t("files.deleteTitle", { name });
  return (
    <Overlay title={title} label={title} onClose={onClose} className="files-delete-overlay" testId="files-delete-dialog">
      <p>{t(folder ? "files.deleteFolder" : "files.deleteFile", { name })}</p>
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
