// The upload's progress (one file at a time, with a progress bar): which file of
// how many, and how far it is.
import { useT } from "../lib/i18n";

export interface UploadProgress {
  name: string;
  /** 1-based position in the queue */
  current: number;
  total: number;
  loaded: number;
  size: number;
}

export function percent(progress: UploadProgress): number {
  if (progress.size <= 0) return progress.loaded > 0 ? 100 : 0;
  return Math.min(100, Math.round((progress.loaded / progress.size) * 100));
}

export function ProgressBar({ progress }: { progress: UploadProgress }) {
  const t = useT();
  const label = t("files.uploading", { name: progress.name, current: progress.current, total: progress.total });
  const value = percent(progress);
  return (
    <div className="files-upload-progress" data-testid="files-upload-progress">
      <div className="files-upload-label">
        <span>{label}</span>
        <span className="muted">{value}%</span>
      </div>
      <div className="files-progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
        <div className="files-progress-bar" style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}
