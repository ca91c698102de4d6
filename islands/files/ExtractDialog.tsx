// Extract (issue 32): asks where, starting from the archive's folder, and says before anything is
// written what the extraction would do there: how many entries, which existing files it would
// replace, which it could not place (a file where a folder is: confirming is then refused), and
// that a folder not there yet is made. The node reads the archive for it (…/extract-preview).
import { useEffect, useState } from "react";
import { normalizePath, type ExtractPreview } from "../../core/files";
import { useT } from "../lib/i18n";
import { Overlay } from "./Overlay";
import { previewExtract } from "./file-api";

export interface ExtractDialogProps {
  serverId: string;
  /** the archive, from the server's folder */
  archive: string;
  name: string;
  /** the current folder, where the field starts */
  folder: string;
  onConfirm: (destination: string, makeFolder: boolean) => Promise<unknown>;
  onClose: () => void;
}

/** How long typing may pause before the preview is asked for. */
const PREVIEW_DELAY_MS = 300;

type Preview = { state: "loading" } | { state: "failed"; message: string } | ({ state: "ready" } & ExtractPreview);

export function ExtractDialog({ serverId, archive, name, folder, onConfirm, onClose }: ExtractDialogProps) {
  const t = useT();
  const [destination, setDestination] = useState(`/${folder}`);
  const [preview, setPreview] = useState<Preview>({ state: "loading" });
  const [busy, setBusy] = useState(false);
  const title = t("files.extractTitle", { name });

  useEffect(() => {
    let current = true;
    setPreview({ state: "loading" });
    const timer = setTimeout(() => {
      previewExtract(serverId, archive, normalizePath(destination)).then(
        (answer) => current && setPreview({ state: "ready", ...answer }),
        (error: unknown) => current && setPreview({ state: "failed", message: errorText(error, t) }),
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [serverId, archive, destination]);

  const ready = preview.state === "ready" && preview.conflicts.length === 0 && !busy;
  return (
    <Overlay title={title} label={title} onClose={onClose} className="files-extract-overlay" testId="files-extract-dialog">
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!ready || preview.state !== "ready") return;
          setBusy(true);
          try {
            await onConfirm(preview.destination, !preview.destinationExists);
          } finally {
            setBusy(false);
          }
        }}
      >
        <label className="field">
          <span className="field-label">{t("files.extractTo")}</span>
          <input type="text" name="destination" value={destination} autoFocus autoComplete="off" spellCheck={false} dir="ltr" onChange={(e) => setDestination(e.target.value)} />
          <span className="field-hint">{t("files.extractIntoHint")}</span>
        </label>
        <PreviewText preview={preview} />
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn-primary" disabled={!ready} data-confirm-extract="">
            {t("files.extract")}
          </button>
        </div>
      </form>
    </Overlay>
  );
}

function PreviewText({ preview }: { preview: Preview }) {
  const t = useT();
  if (preview.state === "loading") return <p className="muted small" aria-busy="true">{t("files.extractChecking")}</p>;
  if (preview.state === "failed") return <p className="files-field-error small">{preview.message}</p>;
  const more = preview.overwriteCount - preview.overwrites.length;
  return (
    <div className="stack files-extract-preview small" data-testid="files-extract-preview" aria-live="polite">
      <p>{t("files.extractEntries", { count: preview.entries })}</p>
      {preview.destinationExists ? null : <p>{t("files.extractMakesFolder", { folder: `/${preview.destination}` })}</p>}
      {preview.conflicts.length > 0 ? (
        <div className="stack" data-testid="files-extract-conflicts">
          <p className="files-field-error">{t("files.extractConflicts")}</p>
          <PathList paths={preview.conflicts} />
        </div>
      ) : null}
      {preview.overwriteCount === 0 ? (
        <p className="muted">{t("files.extractReplacesNothing")}</p>
      ) : (
        <div className="stack" data-testid="files-extract-overwrites">
          <p>{t("files.extractReplaces", { count: preview.overwriteCount })}</p>
          <PathList paths={preview.overwrites} />
          {more > 0 ? <p className="muted">{t("files.extractMore", { count: more })}</p> : null}
        </div>
      )}
    </div>
  );
}

function PathList({ paths }: { paths: string[] }) {
  return (
    <ul className="files-name-list">
      {paths.map((path) => (
        <li key={path} dir="ltr">
          {`/${path}`}
        </li>
      ))}
    </ul>
  );
}

function errorText(error: unknown, t: ReturnType<typeof useT>): string {
  const body = (error as { body?: { error?: { code?: string; metadata?: Record<string, unknown> } } }).body?.error;
  return body?.code ? t(`errors.${body.code}`, body.metadata as Record<string, string>) : t("errors.ErrGeneric");
}
