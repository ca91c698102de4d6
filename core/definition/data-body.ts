// The `data` of POST …/data in either form: the plain name-to-value map ({greeting: "hi"}), or
// each variable whole, as PufferPanel 2's daemon reads it and puffMob sends it ({greeting:
// {type, display, value, …}}). Only the value changes; nothing else sent is dropped unseen: a
// variable field sent beside it must say what the server's variable already says (its display,
// type, flags and options are the template's, changed by an administrator's definition edit),
// and a key that is no variable field is refused.
import { KilnError } from "../errors";
import type { Variable } from "./template";
import { ownVariable } from "./variable-value";

/** What PufferPanel's Variable carries beside `value` (and Kiln's multiLine). */
const VARIABLE_FIELDS = ["display", "desc", "type", "required", "userEdit", "internal", "options", "multiLine"] as const;
const ACCEPTED = ["value", ...VARIABLE_FIELDS];

/** A field the stored variable lacks, sent as PufferPanel writes its absence. */
const ABSENT: Record<string, (value: unknown) => boolean> = {
  internal: (value) => value === false || value === null,
  multiLine: (value) => value === false || value === null,
  options: (value) => value === null || (Array.isArray(value) && value.length === 0),
  desc: (value) => value === "" || value === null,
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The name-to-value changes a POST …/data body asks for, read against the server's variables.
 * A name the server lacks is left for withVariableValues to refuse (ErrNotFound), as in the
 * name-to-value form. Throws ErrUnknownField or ErrFieldNotEqual naming `data.<name>.<field>`.
 */
export function valuesFromDataBody(data: Record<string, unknown>, variables: Record<string, Variable>): Record<string, unknown> {
  const changes: Record<string, unknown> = Object.create(null);
  for (const [name, sent] of Object.entries(data)) {
    const variable = ownVariable(variables, name);
    if (!isRecord(sent) || !variable) {
      changes[name] = sent;
      continue;
    }
    for (const [key, value] of Object.entries(sent)) {
      const field = `data.${name}.${key}`;
      if (key === "value") continue;
      if (!(VARIABLE_FIELDS as readonly string[]).includes(key)) throw new KilnError("ErrUnknownField", { field, accepted: ACCEPTED }, `${field} is not a variable field`);
      const stored = (variable as Record<string, unknown>)[key];
      const same = stored === undefined ? ABSENT[key]?.(value) === true : JSON.stringify(value) === JSON.stringify(stored);
      if (!same) throw new KilnError("ErrFieldNotEqual", { field1: field, field2: stored === undefined ? "(not set)" : JSON.stringify(stored) }, `only a variable's value changes here; ${field} differs from the server's`);
    }
    // A variable object without `value` changes nothing of it.
    if (Object.hasOwn(sent, "value")) changes[name] = sent.value;
  }
  return changes;
}
