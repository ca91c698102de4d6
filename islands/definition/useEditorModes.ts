// The editor/JSON switch shared by the definition and template editors. Switching converts
// between the form and the text; text that is not a JSON object stays as typed and its error is
// reported where it is (line and column), so nothing is lost. A version-1 template is recognised
// on the way into the editor and held until the user says whether to convert it.
import { useState } from "react";
import type { convertV1Template, looksLikeV1Template } from "../../core/definition/v1";
import { definitionToForm, formToDefinition, parseDefinitionJson, type DefinitionForm, type Json } from "./convert";
import { locateJsonError, type JsonErrorPlace } from "./json-error";

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
  /** a version-1 template waiting for the user's answer */
  v1: Json | null;
  switchMode: (next: EditMode) => void;
  convertV1: () => void;
  keepV1: () => void;
  /** the definition as it stands, or null (with jsonError set) when the JSON text is not one */
  current: () => Json | null;
}

/** Why `text` is not a definition: where its JSON breaks, or (valid JSON, not an object) its start. */
function errorPlace(text: string): JsonErrorPlace {
  return locateJsonError(text) ?? { offset: 0, line: 1, column: 1 };
}

/** The version-1 format's functions: passed in by the template editor, so other editors do not ship them. */
export interface V1Support {
  looksLike: typeof looksLikeV1Template;
  convert: typeof convertV1Template;
}

export interface EditorModeOptions {
  /** a template: edited with its environment list */
  template?: boolean;
  /** recognise version-1 templates and offer to convert them */
  v1?: V1Support;
  /** the template's name, for a converted version-1 template */
  name?: string;
  /** told when a switch or a save finds the JSON text invalid (the editors toast it) */
  onInvalid?: () => void;
}

export function useEditorModes(initialText: string, initialMode: EditMode, { template = false, v1: v1Support, name = "", onInvalid }: EditorModeOptions = {}): EditorModes {
  const toForm = (definition: Json) => definitionToForm(definition, { template });
  const [mode, setMode] = useState<EditMode>(initialMode);
  const [text, setTextState] = useState(initialText);
  const [jsonError, setJsonError] = useState<JsonErrorPlace | null>(() => (parseDefinitionJson(initialText) ? null : errorPlace(initialText)));
  const [v1, setV1] = useState<Json | null>(() => {
    const parsed = parseDefinitionJson(initialText);
    return parsed && v1Support?.looksLike(parsed) ? parsed : null;
  });
  // Made from the JSON on the way into editor mode; until then it is not needed.
  const [form, setForm] = useState<DefinitionForm | null>(() => {
    const parsed = initialMode === "editor" && !v1 ? parseDefinitionJson(initialText) : null;
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
    if (v1Support?.looksLike(parsed)) return setV1(parsed);
    setForm(toForm(parsed));
    setMode("editor");
  }

  function convertV1() {
    if (!v1 || !v1Support) return;
    const converted = v1Support.convert(v1, name) as Json;
    setV1(null);
    setTextState(toJson(converted));
    setJsonError(null);
    setForm(toForm(converted));
    setMode("editor");
  }

  function current(): Json | null {
    if (shownMode === "editor" && form) return formToDefinition(form);
    const parsed = parseDefinitionJson(text);
    if (!parsed) invalid();
    return parsed;
  }

  return { mode: shownMode, text, setText, form, setForm, jsonError, v1, switchMode, convertV1, keepV1: () => setV1(null), current };
}
