// The edit overlay (spec section 2 "File manager"): fetches the file, then loads the code editor
// (its own chunk) and shows it; Save (or Ctrl/Cmd+S) writes it back. Without putServerFiles the
// file opens read-only. Failures are the spec's 'file-load failed' and 'save failed' toasts.
import { useEffect, useRef, useState } from "react";
import { useT } from "../lib/i18n";
import { showToast } from "../shell/toasts";
import { readText, writeFile } from "./file-api";
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

type Phase = "loading" | "ready";

export function EditorOverlay({ serverId, path, name, readOnly, onClose, onSaved }: EditorOverlayProps) {
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorHandle | null>(null);
  const [phase, setPhase] = useState<Phase>("loading");
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  // The editor calls back into the latest save, not the one of its first render.
  const saveRef = useRef<() => void>(() => {});
  const title = readOnly ? name : t("files.editTitle", { name });
  const label = t("files.editTitle", { name });

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      let text: string;
      try {
        text = await readText(serverId, path);
      } catch {
        if (cancelled) return;
        showToast(t("files.loadFailed"), { error: true });
        onClose();
        return;
      }
      const options: EditorOptions = {
        name,
        label,
        readOnly,
        onChange: () => setDirty(true),
        onSave: () => saveRef.current(),
        phrases: Object.fromEntries(Object.entries(EDITOR_PHRASES).map(([phrase, key]) => [phrase, t(key)])),
      };
      let handle: EditorHandle;
      try {
        const { createEditor } = await import("./code-editor");
        if (cancelled || !host.current) return;
        handle = createEditor(host.current, text, options);
      } catch {
        if (cancelled || !host.current) return;
        handle = plainEditor(host.current, text, options);
      }
      editor.current = handle;
      setPhase("ready");
      handle.focus();
    })();
    return () => {
      cancelled = true;
      editor.current?.destroy();
      editor.current = null;
    };
    // Opened once per file; the overlay is remounted for another one.
  }, [serverId, path]);

  async function save() {
    const handle = editor.current;
    if (readOnly || !handle || saving) return;
    setSaving(true);
    try {
      await writeFile(serverId, path, handle.getText());
      setDirty(false);
      showToast(t("files.saved", { name }));
      onSaved();
    } catch {
      showToast(t("files.saveFailed"), { error: true });
    } finally {
      setSaving(false);
    }
  }
  saveRef.current = () => void save();

  function close() {
    if (dirty && !confirm(t("files.discard"))) return;
    onClose();
  }

  return (
    <Overlay
      title={title}
      label={label}
      onClose={close}
      className="files-editor-overlay"
      testId="files-editor"
      head={dirty ? <span className="badge badge-warn files-dirty">{t("files.unsaved")}</span> : null}
    >
      <div className="files-editor-body">
        {phase === "loading" ? <p className="muted files-editor-loading">{t("files.editorLoading")}</p> : null}
        <div className="files-editor-host" ref={host} data-ready={phase === "ready" ? "" : undefined} />
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={close}>
          {t(readOnly ? "common.close" : "common.cancel")}
        </button>
        {readOnly ? null : (
          <button type="button" className="btn btn-primary" data-save-file="" disabled={phase !== "ready" || saving} onClick={() => void save()} title={`${t("common.save")} (Ctrl+S)`}>
            {t("common.save")}
          </button>
        )}
      </div>
    </Overlay>
  );
}
