// Upload: choose files, then Start (or Enter); disabled with nothing
// chosen or while an upload runs. Files go one at a time, in order, each with its progress bar.
import { useState } from "react";
import { useT } from "../lib/i18n";
import { Overlay } from "./Overlay";
import { ProgressBar, type UploadProgress } from "./ProgressBar";

export interface UploadDialogProps {
  folderLabel: string;
  progress: UploadProgress | null;
  onStart: (files: File[]) => void;
  onClose: () => void;
}

export function UploadDialog({ folderLabel, progress, onStart, onClose }: UploadDialogProps) {
  const t = useT();
  const [chosen, setChosen] = useState<File[]>([]);
  const uploading = progress !== null;
  const title = t("files.uploadTitle");
  return (
    <Overlay title={title} label={title} onClose={onClose} className="files-upload-overlay" testId="files-upload-dialog">
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (uploading || chosen.length === 0) return;
          onStart(chosen);
        }}
        onKeyDown={(e) => {
          // Enter starts from anywhere in the form, the file input too (it has no implicit submit).
          if (e.key !== "Enter" || (e.target as HTMLElement).tagName === "BUTTON") return;
          e.preventDefault();
          e.currentTarget.requestSubmit();
        }}
      >
        <label className="field">
          <span className="field-label">{t("files.uploadChoose")}</span>
          <input type="file" name="file" multiple autoFocus disabled={uploading} className="files-file-input" onChange={(e) => setChosen(Array.from(e.target.files ?? []))} />
          <span className="field-hint">{t("files.uploadHint", { folder: folderLabel })}</span>
        </label>
        {progress ? <ProgressBar progress={progress} /> : null}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t("common.close")}
          </button>
          <button type="submit" className="btn btn-primary" disabled={uploading || chosen.length === 0}>
            {t("files.uploadStart")}
          </button>
        </div>
      </form>
    </Overlay>
  );
}
