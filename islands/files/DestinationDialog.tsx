// Move or copy entries into another folder: the folder is typed as a path from the
// server's folder ("/" is the server's folder itself), starting from the current one. The
// daemon refuses a name that is taken there and a folder moved into itself.
import { useState } from "react";
import { normalizePath } from "../../core/files";
import { useT } from "../lib/i18n";
import { Overlay } from "./Overlay";
import { DialogForm } from "./DialogForm";

export interface DestinationDialogProps {
  copy: boolean;
  names: string[];
  /** the current folder, where the field starts */
  folder: string;
  onConfirm: (destination: string) => Promise<unknown>;
  onClose: () => void;
}

export function DestinationDialog({ copy, names, folder, onConfirm, onClose }: DestinationDialogProps) {
  const t = useT();
  const [destination, setDestination] = useState(`/${folder}`);
  const same = normalizePath(destination) === folder;
  const what = names.length === 1 ? names[0]! : t("files.entries", { count: names.length });
  const title = t(copy ? "files.copyTitle" : "files.moveTitle", { what });
  return (
    <Overlay title={title} label={title} onClose={onClose} className="files-destination-overlay" testId="files-destination-dialog">
      <DialogForm ready={!same} confirm={t(copy ? "files.copy" : "files.move")} onConfirm={() => onConfirm(destination)} onCancel={onClose}>
        <label className="field">
          <span className="field-label">{t("files.destination")}</span>
          <input type="text" name="destination" value={destination} autoFocus autoComplete="off" spellCheck={false} onChange={(e) => setDestination(e.target.value)} />
          <span className="field-hint">{same ? t("files.sameFolder") : t("files.destinationHint")}</span>
        </label>
      </DialogForm>
    </Overlay>
  );
}
