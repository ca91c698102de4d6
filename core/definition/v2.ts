// PufferPanel 2.x templates (the `v2` and `v2.6` branches of pufferpanel/templates) read into
// Kiln's template format. The shapes are Kiln's own (Kiln's format grew from them); what differs
// is how PufferPanel reads them, so the conversion writes that reading out:
// - a variable's missing `required` or `userEdit` is false (Go's zero value), not Kiln's true;
// - an `internal` variable is hidden from users: not required from them, not editable by them;
// - `type` defaults to string; integer and boolean values written as text are typed;
// - descriptions are HTML: converted to markdown (./html-description);
// - the legacy `run.program` + `run.arguments` make the command (as PufferPanel's loader does);
// - no `supportedEnvironments`: the template's environment is the only one (as its import does);
// - a variable holding several options (JVM arguments) splits into words (./word-split).
// Everything else, known or not, is kept as written (steps, environments, requirements with
// PufferPanel's OS names and `||` alternatives, `tasks`, …) for the schema to read or refuse by
// field. Pure and zod-free, for the panel and the template editor alike.
import { hasHtml, htmlToMarkdown } from "./html-description";
import type { ImportNote } from "./import-notes";
import { markSplitWords } from "./word-split";

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Markers of PufferPanel 2.x that Kiln's own format never writes: `internal` variables, the legacy run. */
export function looksLikeV2Template(value: unknown): boolean {
  if (!isObject(value)) return false;
  const data = isObject(value.data) ? Object.values(value.data) : [];
  if (data.some((v) => isObject(v) && "internal" in v)) return true;
  return isObject(value.run) && typeof value.run.program === "string";
}

/** Fields only Kiln's own format has: a template holding one is Kiln's, whatever else it lacks. */
const KILN_ONLY = { template: ["source", "readme", "limits", "fileDenylist", "addons"], run: ["readyMarkers"], variable: ["multiLine", "rules", "splitWords"] };

/**
 * A top-level field that only Kiln's own templates have and no import adds (unlike `source` and
 * `readme`): such a template is Kiln's even when it also uses a field PufferPanel 3 has (`query`).
 */
export function hasKilnTemplateField(value: unknown): boolean {
  return isObject(value) && ["limits", "fileDenylist", "addons"].some((field) => field in value);
}

/**
 * A template that no marker tells apart from Kiln's own format, written the way PufferPanel 2.x
 * writes and Kiln never does: some variable does not say whether it is required or user-editable,
 * or gives a number or true/false as text ("2456"). Kiln writes both flags and typed values on
 * every variable it stores, answers or ships, so such a file was written by hand or by PufferPanel
 * 2.x, whose Go structs read a missing flag as false. For the flags the two formats read it
 * oppositely (Kiln's defaults are true); the safe reading wins: neither editable by users nor
 * required, as PufferPanel reads it, and the importer says so.
 */
export function looksLikeUnmarkedV2(value: unknown): boolean {
  if (!isObject(value) || KILN_ONLY.template.some((field) => field in value)) return false;
  if (isObject(value.run) && KILN_ONLY.run.some((field) => field in (value.run as Json))) return false;
  const variables = (isObject(value.data) ? Object.values(value.data) : []).filter(isObject);
  if (variables.some((v) => KILN_ONLY.variable.some((field) => field in v))) return false;
  const typedAsText = (v: Json) => (v.type === "integer" || v.type === "boolean") && typeof v.value === "string" && v.value.trim() !== "";
  return variables.some((v) => !("required" in v) || !("userEdit" in v) || typedAsText(v));
}

/** true/false, also written as text ("true", "1", "f", …) as Go's strconv reads it; else undefined. */
export function readBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== "string") return undefined;
  const v = value.trim();
  if (["1", "t", "T", "true", "TRUE", "True"].includes(v)) return true;
  if (["0", "f", "F", "false", "FALSE", "False"].includes(v)) return false;
  return undefined;
}

export interface VariableRules {
  /** v3 reads an empty integer as 0; 2.x keeps the text. */
  emptyIntegerIsZero: boolean;
}

/** One PufferPanel variable in Kiln's terms; unknown fields (`internal`, …) are kept. */
function convertVariable(name: string, source: Json, rules: VariableRules, notes: ImportNote[]): Json {
  const field = `data.${name}`;
  const v: Json = { ...source };
  if (v.type === undefined || v.type === "") v.type = "string";
  if (v.value === undefined || v.value === null) v.value = "";
  if (v.type === "integer" && typeof v.value === "string") {
    const text = v.value.trim();
    if (/^[+-]?\d+$/.test(text) && Number.isSafeInteger(Number(text))) v.value = Number(text);
    else if (text === "" && rules.emptyIntegerIsZero) v.value = 0;
    else if (text !== "") {
      v.type = "string";
      notes.push({ rule: "valueType", field: `${field}.type`, detail: "string" });
    }
  } else if (v.type === "boolean" && typeof v.value !== "boolean") {
    const b = readBoolean(v.value === "" ? "false" : v.value);
    if (b !== undefined) v.value = b;
    else {
      v.type = "string";
      v.value = String(v.value);
      notes.push({ rule: "valueType", field: `${field}.type`, detail: "string" });
    }
  }
  for (const flag of ["required", "userEdit"] as const) {
    if (v[flag] !== undefined) continue;
    v[flag] = false;
    notes.push({ rule: "flagDefault", field: `${field}.${flag}`, detail: "false" });
  }
  if (v.internal === true && (v.required === true || v.userEdit === true)) {
    v.required = false;
    v.userEdit = false;
    notes.push({ rule: "internal", field });
  }
  if (typeof v.desc === "string" && hasHtml(v.desc)) {
    v.desc = htmlToMarkdown(v.desc);
    notes.push({ rule: "description", field: `${field}.desc` });
  }
  return v;
}

/** The `data` map read by PufferPanel's rules; entries that are not objects are left for the schema to refuse. */
export function convertVariables(data: unknown, rules: VariableRules, notes: ImportNote[]): unknown {
  if (!isObject(data)) return data;
  return Object.fromEntries(Object.entries(data).map(([name, v]) => [name, isObject(v) ? convertVariable(name, v, rules, notes) : v]));
}

/** `supportedEnvironments` missing or empty: the environment alone, as PufferPanel's import fills it. */
export function fillSupportedEnvironments(template: Json, notes: ImportNote[]): void {
  const list = template.supportedEnvironments;
  if ((list === undefined || (Array.isArray(list) && list.length === 0)) && isObject(template.environment)) {
    template.supportedEnvironments = [{ ...template.environment }];
    notes.push({ rule: "supportedEnvironments", field: "supportedEnvironments" });
  }
}

/** PufferPanel's loader: a non-empty `program` makes the command, program and arguments joined with spaces. */
function convertLegacyRun(run: Json, notes: ImportNote[]): Json {
  if (!("program" in run) && !("arguments" in run)) return run;
  const { program, arguments: args, ...rest } = run;
  if (typeof program === "string" && program.trim() !== "") {
    const words = Array.isArray(args) ? args.map(String) : [];
    rest.command = [program, ...words].join(" ").trim();
    notes.push({ rule: "legacyRun", field: "run.command" });
  } else {
    notes.push({ rule: "dropped", field: "run.program", detail: "empty" });
  }
  return rest;
}

/** A 2.x template (v2 or v2.6) as Kiln template JSON, for the schema to parse. Never throws. */
export function convertV2Template(value: unknown, notes: ImportNote[]): Json {
  const template: Json = isObject(value) ? structuredClone(value) : {};
  template.data = convertVariables(template.data, { emptyIntegerIsZero: false }, notes);
  if (isObject(template.run)) template.run = convertLegacyRun(template.run, notes);
  fillSupportedEnvironments(template, notes);
  markSplitWords(template, notes);
  return template;
}
