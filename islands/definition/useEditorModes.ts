// The editor/JSON switch shared by the definition and template editors. Switching converts
// between the form and the text; text that is not a JSON object stays as typed and its error is
// reported where it is (line and column), so nothing is lost. A template in one of PufferPanel's
// formats (1.x, 2.x, v3) or a Pterodactyl/Pelican egg is recognised on the way into the editor and
// held until the user says whether to convert it; the conversion's notes are kept to show what
// changed. An egg that cannot be converted stays as it is, with the refusal told (onConvertFailed).
import { useState } from "react";
import { definitionToForm, formToDefinition, parseDefinitionJson, type DefinitionForm, type Json } from "./convert";
import { convertForeign as convertOffered, findForeign, type Converted, type Foreign, type ImportSupport } from "./foreign";
import { locateJsonError, type JsonErrorPlace } from "./json-error";

export type { Converted, Foreign, ImportSupport } from "./foreign";

export const EDIT_MODES = ["editor", "json"] as const;
export type EditMode = (typeof EDIT_MODES)[number];

export const toJson = (definition: Json) => JSON.stringify(definition, null, 2);

export interface EditorModes {
  mode: EditMode;
  text: string;
  setText: (text: string) => void;
  form: DefinitionForm | null;
  setForm: (form: DefinitionForm) => void;
  /** where the JSON text went wrong, after a switch or save that needed it */
  jsonError: JsonErrorPlace | null;
  /** a template in one of PufferPanel's formats waiting for the user's answer */
  foreign: Foreign | null;
  /** what the last conversion changed */
  converted: Converted | null;
  switchMode: (next: EditMode) => void;
  /** a whole new text (a file opened): taken as if pasted in JSON mode and then switched to the editor */
  load: (text: string) => void;
  convertForeign: () => void;
  keepForeign: () => void;
  /** the definition as it stands, or null (with jsonError set) when the JSON text is not one */
  current: () => Json | null;
}

/** Why `text` is not a definition: where its JSON breaks, or (valid JSON, not an object) its start. */
function errorPlace(text: string): JsonErrorPlace {
  return locateJsonError(text) ?? { offset: 0, line: 1, column: 1 };
}

export interface EditorModeOptions {
  /** a template: edited with its environment list */
  template?: boolean;
  /** recognise PufferPanel's formats and offer to convert them */
  importer?: ImportSupport;
  /** the template's name, for a converted version-1 template */
  name?: string;
  /** told when a switch or a save finds the JSON text invalid (the editors toast it) */
  onInvalid?: () => void;
  /** told when converting is refused (an egg that cannot run: the error names the field) */
  onConvertFailed?: (error: unknown) => void;
}

export function useEditorModes(initialText: string, initialMode: EditMode, { template = false, importer, name = "", onInvalid, onConvertFailed }: EditorModeOptions = {}): EditorModes {
  const toForm = (definition: Json) => definitionToForm(definition, { template });
  const [mode, setMode] = useState<EditMode>(initialMode);
  const [text, setTextState] = useState(initialText);
  const [jsonError, setJsonError] = useState<JsonErrorPlace | null>(() => (parseDefinitionJson(initialText) ? null : errorPlace(initialText)));
  const foreignOf = (parsed: Json | null): Foreign | null => findForeign(parsed, importer);
  const [foreign, setForeign] = useState<Foreign | null>(() => foreignOf(parseDefinitionJson(initialText)));
  const [converted, setConverted] = useState<Converted | null>(null);
  // Made from the JSON on the way into editor mode; until then it is not needed.
  const [form, setForm] = useState<DefinitionForm | null>(() => {
    const parsed = initialMode === "editor" && !foreign ? parseDefinitionJson(initialText) : null;
    return parsed ? toForm(parsed) : null;
  });
  const shownMode: EditMode = form ? mode : "json";

  const setText = (next: string) => {
    setTextState(next);
    setJsonError(null);
  };

  function invalid() {
    setJsonError(errorPlace(text));
    onInvalid?.();
  }

  function switchMode(next: EditMode) {
    if (next === shownMode) return;
    if (next === "json") {
      if (form) setTextState(toJson(formToDefinition(form)));
      setMode("json");
      return;
    }
    const parsed = parseDefinitionJson(text);
    if (!parsed) return invalid();
    const found = foreignOf(parsed);
    if (found) return setForeign(found);
    setForm(toForm(parsed));
    setMode("editor");
  }

  function load(next: string) {
    setTextState(next);
    setConverted(null);
    const parsed = parseDefinitionJson(next);
    const found = parsed ? foreignOf(parsed) : null;
    setForeign(found);
    if (parsed && !found) {
      setJsonError(null);
      setForm(toForm(parsed));
      setMode("editor");
      return;
    }
    // Not a definition, or one in PufferPanel's format: shown as JSON, with where it breaks or
    // with the conversion offer above it, as a pasted text would be.
    setMode("json");
    setJsonError(parsed ? null : errorPlace(next));
    if (!parsed) onInvalid?.();
  }

  function convertForeign() {
    if (!foreign || !importer) return;
    let result: ReturnType<typeof convertOffered>;
    try {
      result = convertOffered(foreign, importer, name);
    } catch (error) {
      onConvertFailed?.(error);
      return;
    }
    setForeign(null);
    setConverted(result.converted);
    setTextState(toJson(result.template));
    setJsonError(null);
    setForm(toForm(result.template));
    setMode("editor");
  }

  function current(): Json | null {
    if (shownMode === "editor" && form) return formToDefinition(form);
    const parsed = parseDefinitionJson(text);
    if (!parsed) invalid();
    return parsed;
  }

  return { mode: shownMode, text, setText, form, setForm, jsonError, foreign, converted, switchMode, load, convertForeign, keepForeign: () => setForeign(null), current };
}
