// Edit definition (on the server admin controls card): an overlay with two modes, editor (form) and
// json (raw). Switching converts between them; Save stores the whole definition on the node and
// reloads the page. Without script it is a <details> overlay with a JSON textarea posting to
// /server/{id}/definition; once hydrated that gives way to the full editor.
import { useEffect, useMemo, useRef, useState } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { api } from "./lib/api";
import { Icon } from "./lib/Icon";
import { close as closeIcon } from "./lib/icons";
import { reportError } from "./shell/report-error";
import { showToast } from "./shell/toasts";
import type { Json } from "./definition/convert";
import { DefinitionForm, type Section } from "./definition/DefinitionForm";
import { Segmented } from "./definition/fields";
import { JsonText } from "./definition/JsonText";
import { EditorLayer } from "./definition/SubDialog";
import { DetailsDialog, DialogActions } from "./lib/Dialog";
import { EDIT_MODES, toJson, useEditorModes, type EditMode } from "./definition/useEditorModes";

export interface DefinitionEditorProps {
  serverId: string;
  /** the current definition JSON, as the node returns it */
  definition: object;
}

export const definitionUrl = (serverId: string) => `/proxy/daemon/server/${encodeURIComponent(serverId)}`;

interface Opening {
  mode: EditMode;
  text: string;
}

function DefinitionEditorView({ serverId, definition }: DefinitionEditorProps) {
  const t = useT();
  const initialJson = useMemo(() => toJson(definition as Json), [definition]);
  const [enhanced, setEnhanced] = useState(false);
  const [opening, setOpening] = useState<Opening | null>(null);
  const details = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    // Taking over from the script-free overlay: if it was already open, carry on in the editor.
    // (What was typed there is gone: React puts a textarea back to its default while hydrating.)
    if (details.current?.open) setOpening({ mode: "editor", text: initialJson });
    setEnhanced(true);
  }, []);

  if (!enhanced) {
    return (
      <DetailsDialog className="defedit-details" overlayClassName="defedit" detailsRef={details} summary={t("definition.open")} summaryProps={{ className: "btn" }} title={t("definition.title")}>
        <form method="post" action={`/server/${encodeURIComponent(serverId)}/definition`} className="stack defedit-plain">
          <label className="field">
            <span className="field-label">{t("definition.mode.json")}</span>
            <textarea name="definition" className="defedit-json" rows={24} spellCheck={false} defaultValue={initialJson} />
          </label>
          <DialogActions cancel={t("common.cancel")} confirm={t("common.save")} />
        </form>
      </DetailsDialog>
    );
  }

  return (
    <>
      <button type="button" className="btn" data-open-definition="" onClick={() => setOpening({ mode: "editor", text: initialJson })}>
        {t("definition.open")}
      </button>
      {opening ? <EditorOverlay serverId={serverId} initial={opening} onClose={() => setOpening(null)} /> : null}
    </>
  );
}

function EditorOverlay({ serverId, initial, onClose }: { serverId: string; initial: Opening; onClose: () => void }) {
  const t = useT();
  const editor = useEditorModes(initial.text, initial.mode, { onInvalid: () => showToast(t("errors.ErrInvalidJson"), { error: true }) });
  const [section, setSection] = useState<Section>("general");
  const [busy, setBusy] = useState(false);

  async function save() {
    const definition = editor.current();
    if (!definition) return;
    setBusy(true);
    try {
      await api("POST", definitionUrl(serverId), definition);
    } catch (error) {
      setBusy(false);
      await reportError(error);
      return;
    }
    showToast(t("definition.saved"));
    onClose();
    // The page is server-rendered from the definition; reloading shows the new state everywhere.
    location.reload();
  }

  return (
    <EditorLayer overlayClassName="defedit-main" label={t("definition.title")} onClose={onClose}>
      <div className="overlay-head defedit-head">
        <h2>{t("definition.title")}</h2>
        <Segmented label={t("definition.mode.label")} value={editor.mode} options={EDIT_MODES.map((m) => ({ value: m, label: t(`definition.mode.${m}`) }))} onChange={editor.switchMode} />
        <button type="button" className="icon-btn" title={t("common.close")} aria-label={t("common.close")} onClick={onClose}>
          <Icon path={closeIcon} />
        </button>
      </div>
      <div className="defedit-body">
        {editor.mode === "editor" && editor.form ? (
          <DefinitionForm value={editor.form} onChange={editor.setForm} section={section} onSectionChange={setSection} />
        ) : (
          <JsonText value={editor.text} onChange={editor.setText} error={editor.jsonError} />
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t("common.cancel")}
        </button>
        <button type="button" className="btn btn-primary" data-save-definition="" disabled={busy} onClick={() => void save()}>
          {t(busy ? "definition.saving" : "common.save")}
        </button>
      </div>
    </EditorLayer>
  );
}

export default defineIsland<DefinitionEditorProps>({
  name: "DefinitionEditor",
  component: DefinitionEditorView,
  messages: ["definition.", "common.", "errors.ErrInvalidJson"],
  hydrate: "interaction",
});
