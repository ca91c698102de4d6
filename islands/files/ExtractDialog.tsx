// Extract: asks where, starting from the archive's folder, and says before anything is
// written what the extraction would do there: how many entries, which existing files it would
// replace, which it could not place (a file where a folder is: confirming is then refused), and
// that a folder not there yet is made. The node reads the archive for it (…/extract-preview).
import { shownName } from "../../core/files/shown-name";
import { useEffect, useState } from "react";
import { normalizePath, type ExtractPreview } from "../../core/files";
import { useT } from "../lib/i18n";
import { ExtractSummary } from "../lib/ExtractSummary";
import { Overlay } from "./Overlay";
import { DialogForm } from "./DialogForm";
import { previewExtract } from "./file-api";
import { errorMessageKey } from "../../core/errors/message-key";

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
  const title = t("files.extractTitle", { name: shownName(name) });

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

  const ready = preview.state === "ready" && preview.conflicts.length === 0;
  return (
    <Overlay title={title} label={title} onClose={onClose} className="files-extract-overlay" testId="files-extract-dialog">
      <DialogForm
        ready={ready}
        confirm={t("files.extract")}
        confirmData={{ "data-confirm-extract": "" }}
        onConfirm={async () => {
          if (preview.state === "ready") await onConfirm(preview.destination, !preview.destinationExists);
        }}
        onCancel={onClose}
      >
        <label className="field">
          <span className="field-label">{t("files.extractTo")}</span>
          <input type="text" name="destination" value={destination} autoFocus autoComplete="off" spellCheck={false} dir="ltr" onChange={(e) => setDestination(e.target.value)} />
          <span className="field-hint">{t("files.extractIntoHint")}</span>
        </label>
        <PreviewText preview={preview} />
      </DialogForm>
    </Overlay>
  );
}

function PreviewText({ preview }: { preview: Preview }) {
  const t = useT();
  if (preview.state === "loading") return <p className="muted small" aria-busy="true">{t("files.extractChecking")}</p>;
  if (preview.state === "failed") return <p className="files-field-error small">{preview.message}</p>;
  return <ExtractSummary preview={preview} t={t} live />;
}

function errorText(error: unknown, t: ReturnType<typeof useT>): string {
  const body = (error as { body?: { error?: { code?: string; metadata?: Record<string, unknown> } } }).body?.error;
  return body?.code ? t(errorMessageKey(body.code, body.metadata), body.metadata as Record<string, string>) : t("errors.ErrGeneric");
}
