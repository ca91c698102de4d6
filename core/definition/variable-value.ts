// The one check of a server variable's value against its variable, used wherever a
// value is written: the panel (creation, the settings form, POST …/data through the proxy) and
// the node (its data route, stored definitions, and again before a start, an install or a task).
// A value that passes is typed as its variable says and cannot carry a line break or a control
// character into a command, a file or the console, unless the variable is multi-line.
import { KilnError } from "../errors";
import { isReservedKey } from "./object-keys";
import { checkVariableBounds, checkVariableRules } from "./variable-rules";
import { valueWords } from "./command-line";
import { formValues, hiddenVariables } from "./variable-groups";
import type { ServerDefinition, Variable } from "./template";

export type VariableValue = string | number | boolean;

/** Longest one-line value: far above any name, password or message of the day. */
export const MAX_LINE_VALUE = 4096;
/** Longest multi-line value: a small text file. */
export const MAX_MULTILINE_VALUE = 65_536;

// C0 controls, DEL, C1 controls and the Unicode line and paragraph separators: every character a
// file format, a terminal or a console could read as the end of a line or a command.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// Multi-line values may hold tab, line feed and carriage return, still no other control.
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;

const TRUE = new Set<unknown>([true, "true", "on", "1", 1]);
const FALSE = new Set<unknown>([false, "false", "off", "0", 0, ""]);

/** The variable `name` of a definition's data, only when it is the definition's own entry. */
export function ownVariable(data: Record<string, Variable>, name: string): Variable | undefined {
  return !isReservedKey(name) && Object.hasOwn(data, name) ? data[name] : undefined;
}

/**
 * `raw` as the value of `variable`, or a KilnError naming `name`: ErrFieldRequired (empty but
 * required), ErrFieldNotInteger, ErrFieldNotBoolean, ErrFieldNotEqual (not one of the options),
 * ErrFieldHasControlCharacters, ErrFieldTooLarge, ErrInvalidJson (not a string, number or
 * boolean), and the errors of the variable's rules (./variable-rules). Form posts send text, so
 * "2048", "true" and "on" read as their types; an absent value (undefined) is the variable's
 * current one.
 */
export function checkVariableValue(name: string, variable: Variable, raw: unknown): VariableValue {
  const value = typedValue(name, variable, raw);
  checkVariableRules(name, variable.rules, value);
  return value;
}

/**
 * checkVariableValue but for the rules' pattern, which runs on the server's engine (core/patterns):
 * for code the browser runs too (the egg import's check of a default).
 */
export function checkVariableValueButPattern(name: string, variable: Variable, raw: unknown): VariableValue {
  const value = typedValue(name, variable, raw);
  checkVariableBounds(name, variable.rules, value);
  return value;
}

function typedValue(name: string, variable: Variable, raw: unknown): VariableValue {
  const value = raw === undefined ? variable.value : raw;
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") throw new KilnError("ErrInvalidJson", { field: name });
  const empty = value === "";
  if (empty && variable.required && variable.type !== "boolean") throw new KilnError("ErrFieldRequired", { field: name });
  switch (variable.type) {
    case "integer": {
      if (empty) return "";
      const n = typeof value === "number" ? value : typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(n)) throw new KilnError("ErrFieldNotInteger", { field: name });
      return n;
    }
    case "boolean":
      if (TRUE.has(value)) return true;
      if (FALSE.has(value)) return false;
      throw new KilnError("ErrFieldNotBoolean", { field: name });
    case "option": {
      const options = variable.options ?? [];
      const match = options.find((o) => String(o.value) === String(value));
      if (match) return match.value;
      if (empty) return "";
      throw new KilnError("ErrFieldNotEqual", { field1: name, field2: options.map((o) => String(o.value)).join(", ") });
    }
    default: {
      const text = String(value);
      const max = variable.multiLine ? MAX_MULTILINE_VALUE : MAX_LINE_VALUE;
      if (text.length > max) throw new KilnError("ErrFieldTooLarge", { field: name, max });
      if ((variable.multiLine ? CONTROL_BUT_LINES : CONTROL).test(text)) throw new KilnError("ErrFieldHasControlCharacters", { field: name });
      // Several arguments in one value: they must read as words, so a start never stumbles on them.
      if (variable.splitWords) valueWords(name, text);
      return text;
    }
  }
}

/**
 * Checks the value of every variable of a definition as it stands (defence in depth on the node:
 * before a definition is stored, and before its values are used). Throws the first refusal. A
 * variable its groups hide (their `if` does not hold, ./variable-groups) is not required: the
 * form never showed it.
 */
export function checkDefinitionValues(definition: Pick<ServerDefinition, "data"> & Partial<Pick<ServerDefinition, "groups">>): void {
  const hidden = hiddenByGroups(definition);
  for (const [name, variable] of Object.entries(definition.data)) checkVariableValue(name, hidden.has(name) ? { ...variable, required: false } : variable, variable.value);
}

/** The variables hidden by their groups' conditions for the definition's own values. */
function hiddenByGroups(definition: Pick<ServerDefinition, "data"> & Partial<Pick<ServerDefinition, "groups">>): Set<string> {
  if (!definition.groups?.some((group) => group.if?.trim())) return new Set();
  return hiddenVariables(definition.data, definition.groups, formValues(definition.data, {}));
}

/**
 * A definition with `changes` written into its variables, each checked; throws ErrNotFound for a
 * name the definition has no variable of (`__proto__` and `constructor` included), and changes
 * nothing then. `changes` is read by its own keys, so it may come straight from JSON.parse.
 */
export function withVariableValues<T extends Pick<ServerDefinition, "data"> & Partial<Pick<ServerDefinition, "groups">>>(definition: T, changes: Record<string, unknown>): T {
  const next = structuredClone(definition);
  for (const name of Object.keys(changes)) {
    const variable = ownVariable(next.data, name);
    if (!variable) throw new KilnError("ErrNotFound", { field: name }, `no variable ${name}`);
    variable.value = checkVariableValue(name, { ...variable, required: false }, changes[name]);
  }
  // Whether a value may be empty depends on the groups' conditions, which read the values as they
  // now are: a variable only hidden groups show is not required, as at creation.
  const hidden = hiddenByGroups(next);
  for (const name of Object.keys(changes)) {
    const variable = next.data[name]!;
    if (!hidden.has(name)) checkVariableValue(name, variable, changes[name]);
  }
  return next;
}
