// The edit overlay: fetches the file, then loads the code editor
// (its own chunk) and shows it; Save (or Ctrl/Cmd+S) writes it back. Without putServerFiles the
// file opens read-only. Failures show the 'file-load failed' and 'save failed' toasts.
//
// A save must never change a byte the user did not touch. The bytes are judged first
// (core/files/text-content): binary or non-UTF-8 content never opens in the editor, the overlay
// offers the download instead; a file with mixed line endings opens read-only, and so does any
// file whose text the editor would not give back exactly as it came. Save is enabled only after
// a change.
//
// A save replaces only the version the editor opened (If-Match with the file's ETag): when the
// game, SFTP or another user wrote the file since, the node refuses (ErrFileChanged) and the
// overlay says so, offering to load the file again (the edit is dropped) or to save over it.
import { shownName } from "../../core/files/shown-name";
import { useEffect, useRef, useState } from "react";
import { textContent, type TextRefusal } from "../../core/files/text-content";
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { download as downloadIcon } from "../lib/icons";
import { showToast } from "../shell/toasts";
import { ApiError } from "../lib/api";
import { fileUrl, readBytes, writeFile } from "./file-api";
import { EDITOR_PHRASES, plainEditor, type EditorHandle, type EditorOptions } from "./editor-handle";
import { Overlay } from "./Overlay";

export interface EditorOverlayProps {
  serverId: string;
  path: string;
  name: string;
  readOnly: boolean;
  onClose: () => void;
  /** after a save, so the listing can show the new size and time */
  onSaved: () => void;
}

type Phase = { kind: "loading" } | { kind: "ready"; note: "mixedLineEndings" | "notExact" | null } | { kind: "refused"; refusal: TextRefusal };

export function EditorOverlay({ serverId, path, name, readOnly: mayNotWrite, onClose, onSaved }: EditorOverlayProps) {
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorHandle | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "loading" });
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  // The version opened (or last saved), sent back with a save; and whether a save found another.
  const version = useRef<string | null>(null);
  const [conflict, setConflict] = useState(false);
  // Loading the file again is opening it afresh: the effect below runs once per generation.
  const [generation, setGeneration] = useState(0);
  // The editor calls back into the latest save, not the one of its first render.
  const saveRef = useRef<() => void>(() => {});
  const readOnly = mayNotWrite || (phase.kind === "ready" && phase.note !== null);
  const shown = shownName(name);
  const title = readOnly ? shown : t("files.editTitle", { name: shown });
  const label = t("files.editTitle", { name: shown });

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      let bytes: Uint8Array;
      try {
        ({ bytes, etag: version.current } = await readBytes(serverId, path));
      } catch {
        if (cancelled) return;
        showToast(t("files.loadFailed"), { error: true });
        onClose();
        return;
      }
      if (cancelled) return;
      const content = textContent(bytes);
      if (!content.ok) return setPhase({ kind: "refused", refusal: content.refusal });
      const options: EditorOptions = {
        name,
        label,
        readOnly: mayNotWrite || content.mixedLineEndings,
        lineSeparator: content.lineSeparator,
        onChange: () => setDirty(true),
        onSave: () => saveRef.current(),
        phrases: Object.fromEntries(Object.entries(EDITOR_PHRASES).map(([phrase, key]) => [phrase, t(key)])),
      };
      let handle: EditorHandle;
      try {
        const { createEditor } = await import("./code-editor");
        if (cancelled || !host.current) return;
        handle = createEditor(host.current, content.text, options);
      } catch {
        if (cancelled || !host.current) return;
        handle = plainEditor(host.current, content.text, options);
      }
      editor.current = handle;
      // The last guard: what Save would send, untouched, must be the file as it is.
      const exact = handle.getText() === content.text;
      setPhase({ kind: "ready", note: content.mixedLineEndings ? "mixedLineEndings" : exact ? null : "notExact" });
      handle.focus();
    })();
    return () => {
      cancelled = true;
      editor.current?.destroy();
      editor.current = null;
    };
    // Opened once per file and generation; the overlay is remounted for another file.
  }, [serverId, path, generation]);

  /** Saves the edit: over the version opened, or (`overwrite`) over whatever the file is now. */
  async function save(overwrite = false) {
    const handle = editor.current;
    if (readOnly || !handle || saving || !dirty) return;
    setSaving(true);
    try {
      version.current = await writeFile(serverId, path, handle.getText(), overwrite ? undefined : (version.current ?? undefined));
      setDirty(false);
      setConflict(false);
      showToast(t("files.saved", { name: shown }));
      onSaved();
    } catch (error) {
      if (error instanceof ApiError && error.body?.error.code === "ErrFileChanged") setConflict(true);
      else showToast(t("files.saveFailed"), { error: true });
    } finally {
      setSaving(false);
    }
  }
  saveRef.current = () => void save();

  function reload() {
    setConflict(false);
    setDirty(false);
    setPhase({ kind: "loading" });
    setGeneration((n) => n + 1);
  }

  function close() {
    if (dirty && !confirm(t("files.discard"))) return;
    onClose();
  }

  return (
    <Overlay
      title={title}
      label={label}
      onClose={close}
      className={phase.kind === "refused" ? "files-refused-overlay" : "files-editor-overlay"}
      testId="files-editor"
      head={dirty ? <span className="badge badge-warn files-dirty">{t("files.unsaved")}</span> : null}
    >
      {phase.kind === "refused" ? (
        <p data-refusal={phase.refusal}>{t(phase.refusal === "binary" ? "files.notTextBinary" : "files.notTextEncoding", { name: shown })}</p>
      ) : (
        // One cell of the overlay's grid: the notices take what they need, the editor the rest.
        <div className="files-editor-main">
          {conflict ? (
            <div className="alert alert-warning files-editor-conflict" role="alert" data-conflict="">
              <p>{t("files.changedOnDisk", { name: shown })}</p>
              <div className="inline-form">
                <button type="button" className="btn" onClick={reload} data-reload-file="">{t("files.reloadFile")}</button>
                <button type="button" className="btn btn-danger" onClick={() => void save(true)} disabled={saving} data-overwrite-file="">{t("files.overwrite")}</button>
              </div>
            </div>
          ) : null}
          {phase.kind === "ready" && phase.note ? <p className="muted small files-editor-note" data-note={phase.note}>{t(phase.note === "mixedLineEndings" ? "files.mixedLineEndings" : "files.notExact")}</p> : null}
          <div className="files-editor-body">
            {phase.kind === "loading" ? <p className="muted files-editor-loading">{t("files.editorLoading")}</p> : null}
            <div className="files-editor-host" ref={host} data-ready={phase.kind === "ready" ? "" : undefined} />
          </div>
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={close}>
          {t(readOnly || phase.kind === "refused" ? "common.close" : "common.cancel")}
        </button>
        {phase.kind === "refused" ? (
          <a className="btn btn-primary" href={fileUrl(serverId, path)} download={name} data-download-file="">
            <Icon path={downloadIcon} size={18} />
            <span>{t("files.download")}</span>
          </a>
        ) : readOnly ? null : (
          <button type="button" className="btn btn-primary" data-save-file="" disabled={phase.kind !== "ready" || saving || !dirty} onClick={() => void save()} title={`${t("common.save")} (Ctrl+S)`}>
            {t("common.save")}
          </button>
        )}
      </div>
    </Overlay>
  );
}
