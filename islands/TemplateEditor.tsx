// The template editor on /addtemplate and /template/{id}: editor and JSON
// tabs over one template, the sections with the template's environment list, a template in one of
// PufferPanel's formats offered for conversion (when opened, loaded from a file or switched to the
// editor) with the list of what the conversion changed, and Save through PUT /api/templates/{id}.
// Without script it is a JSON form posting to the page.
import { useEffect, useState } from "react";
import { TEMPLATE_ID } from "../core/definition/constants";
import { detectTemplateFormat, importTemplate, templateSource } from "../core/definition/import";
import { proposedTemplateId } from "../core/templates/ids";
import { KilnError } from "../core/errors";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { api } from "./lib/api";
import { Icon } from "./lib/Icon";
import { alert } from "./lib/icons";
import { useLeaveGuard } from "./lib/leave-guard";
import { reportError } from "./shell/report-error";
import { showToast } from "./shell/toasts";
import type { Json } from "./definition/convert";
import { DefinitionForm, type Section } from "./definition/DefinitionForm";
import { Segmented } from "./definition/fields";
import { JsonText } from "./definition/JsonText";
import { EDIT_MODES, toJson, useEditorModes } from "./definition/useEditorModes";
import { ConversionNotes } from "./definition/ConversionNotes";
import { errorMessageKey } from "../core/errors/message-key";

export interface TemplateEditorProps {
  /** the stored template's id; absent on Add template */
  templateId?: string;
  template: object;
  /** a text that was posted and is not JSON: shown as typed, in JSON mode, with where it breaks */
  text?: string;
  /** on Add, the name typed before a refused save */
  name?: string;
  canEdit: boolean;
  /** where the script-free form posts */
  action: string;
}

export const templateUrl = (id: string) => `/api/templates/${encodeURIComponent(id)}`;

function TemplateEditorView(props: TemplateEditorProps) {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return enhanced ? <Editor {...props} /> : <PlainForm {...props} />;
}

/** Before the script runs (or without it): the template as JSON in a form. */
function PlainForm({ templateId, template, text, name, canEdit, action }: TemplateEditorProps) {
  const t = useT();
  return (
    <form method="post" action={action} className="card stack defedit defedit-page defedit-plain">
      {templateId === undefined ? <NameInput initial={name} /> : null}
      <label className="field">
        <span className="field-label">{t("definition.mode.json")}</span>
        <textarea name="template" className="defedit-json" rows={24} spellCheck={false} defaultValue={text ?? toJson(template as Json)} readOnly={!canEdit} />
      </label>
      {canEdit ? (
        <div className="dialog-actions">
          <button type="submit" className="btn btn-primary">{t("common.save")}</button>
        </div>
      ) : null}
    </form>
  );
}

/** Controlled when given onChange (the editor), else a plain form field starting at `initial`. */
function NameInput({ value, initial, onChange }: { value?: string; initial?: string; onChange?: (name: string) => void }) {
  const t = useT();
  return (
    <label className="field">
      <span className="field-label">{t("templates.name")}</span>
      <input
        type="text"
        name="name"
        required
        pattern="[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}"
        className="defedit-mono"
        spellCheck={false}
        {...(onChange ? { value, onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value) } : { defaultValue: initial })}
      />
      <span className="field-hint">{t("templates.nameHint")}</span>
    </label>
  );
}

function Editor({ templateId, template, text, name: typedName, canEdit }: TemplateEditorProps) {
  const t = useT();
  const [name, setName] = useState(typedName ?? "");
  const editor = useEditorModes(text ?? toJson(template as Json), text === undefined ? "editor" : "json", {
    template: true,
    importer: { detect: detectTemplateFormat, convert: importTemplate },
    name: templateId ?? name,
    onInvalid: () => showToast(t("errors.ErrInvalidJson"), { error: true }),
    // An egg that cannot run: the refusal names the field, in the user's language.
    onConvertFailed: (error) => showToast(error instanceof KilnError ? t(errorMessageKey(error.code, error.metadata), error.metadata) : t("errors.ErrGeneric"), { error: true }),
  });
  const [section, setSection] = useState<Section>("general");
  const [busy, setBusy] = useState(false);
  // Any edit (typed, opened from a file, converted, renamed) until a save succeeds.
  const [dirty, setDirty] = useState(false);
  // Someone who may not save has nothing to lose by leaving.
  const guard = useLeaveGuard(dirty && canEdit, t("definition.leaveUnsaved"));
  const edited = <A extends unknown[]>(change: (...args: A) => void) => (...args: A) => {
    change(...args);
    setDirty(true);
  };

  async function load(file: File) {
    // Exactly as a pasted text: into the editor when it is a definition, else JSON mode with
    // where it breaks, or with the conversion offer for a PufferPanel template.
    const text = await file.text();
    edited(editor.load)(text);
    // On Add, a file brings its id along (an egg's as repositories name eggs), unless one was typed.
    if (templateId === undefined && name.trim() === "") {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the file name alone
      }
      const id = proposedTemplateId(file.name, detectTemplateFormat(parsed) === "egg", (parsed as { name?: unknown } | null)?.name);
      if (id) setName(id);
    }
  }

  async function save() {
    const id = templateId ?? name.trim();
    if (!TEMPLATE_ID.test(id)) return showToast(t("templates.nameInvalid"), { error: true });
    const current = editor.current();
    if (!current) return;
    // Where it came from, unless it says: converted here from PufferPanel's or an egg, else made
    // in this editor, Kiln's (the panel would otherwise guess by its fields, and a Kiln template
    // using groups or a network console reads like a PufferPanel v3 one).
    const definition = current.source ? current : { ...current, source: editor.converted ? templateSource(editor.converted.format) : "kiln" };
    setBusy(true);
    try {
      // Add never replaces: only a 404 means the name is free; any other answer is reported.
      if (templateId === undefined) {
        const existing = await fetch(templateUrl(id), { credentials: "same-origin" });
        if (existing.ok) return showToast(t("templates.nameTaken", { name: id }), { error: true });
        if (existing.status !== 404) return showToast(t("errors.ErrGeneric"), { error: true });
      }
      await api("PUT", templateUrl(id), definition);
      showToast(t("templates.saved"));
      setDirty(false);
      if (templateId === undefined) {
        guard.release();
        location.assign(`/template/${encodeURIComponent(id)}`);
      }
    } catch (error) {
      await reportError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="card stack defedit defedit-page" data-template-editor="">
      <div className="defedit-toolbar">
        {templateId === undefined ? <NameInput value={name} onChange={edited(setName)} /> : null}
        <Segmented label={t("definition.mode.label")} value={editor.mode} options={EDIT_MODES.map((m) => ({ value: m, label: t(`definition.mode.${m}`) }))} onChange={editor.switchMode} />
        {canEdit ? (
          <div className="defedit-toolbar-actions">
            <label className="btn">
              {t("templates.loadFile")}
              <input
                type="file"
                accept=".json,application/json"
                className="sr-only"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = "";
                  if (file) void load(file);
                }}
              />
            </label>
            {dirty ? <span className="badge badge-warn" data-unsaved="">{t("definition.unsaved")}</span> : null}
            <button type="button" className="btn btn-primary" data-save-template="" disabled={busy} onClick={() => void save()}>
              {t(busy ? "definition.saving" : "common.save")}
            </button>
          </div>
        ) : null}
      </div>
      {editor.foreign ? (
        <div className="alert alert-warning" data-convert-offer={editor.foreign.format} data-unmarked={editor.foreign.unmarked ? "" : undefined}>
          <Icon path={alert} size={20} />
          <div className="stack">
            <span>{t(editor.foreign.format === "egg" ? "templates.convert.foundEgg" : editor.foreign.unmarked ? "templates.convert.foundUnmarked" : "templates.convert.found", { format: t(`templates.format.${editor.foreign.format}`) })}</span>
            <div className="dialog-actions">
              <button type="button" className="btn" onClick={editor.keepForeign}>{t("templates.convert.keep")}</button>
              <button type="button" className="btn btn-primary" data-convert="" onClick={edited(editor.convertForeign)}>{t("templates.convert.convert")}</button>
            </div>
          </div>
        </div>
      ) : null}
      {editor.converted ? <ConversionNotes {...editor.converted} /> : null}
      <div className="defedit-body">
        {editor.mode === "editor" && editor.form ? (
          <DefinitionForm value={editor.form} onChange={edited(editor.setForm)} section={section} onSectionChange={setSection} />
        ) : (
          <JsonText value={editor.text} onChange={edited(editor.setText)} error={editor.jsonError} />
        )}
      </div>
    </div>
  );
}

export default defineIsland<TemplateEditorProps>({
  name: "TemplateEditor",
  component: TemplateEditorView,
  messages: ["definition.", "common.", "templates.", "errors.ErrInvalidJson", "errors.ErrGeneric", "errors.ErrTemplateFieldInvalid", "errors.ErrTemplateUnrecognised"],
  hydrate: "load",
});
