// How a template variable travels in an HTML form: one field per variable, named "var.<name>".
// The fields (islands/lib/VariableField, drawn by the server's views and the variable groups
// island) and the routes that read a posted form agree through this module.

export const VARIABLE_FIELD_PREFIX = "var.";

/** The variables of a submitted form (fields named "var.<name>"); for a boolean the last value wins. */
export function variablesFromForm(form: Record<string, unknown>, prefix = VARIABLE_FIELD_PREFIX): Record<string, string> {
  // No prototype: a field named "var.__proto__" becomes a name the caller refuses, not a prototype.
  const out: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(form)) {
    if (!key.startsWith(prefix)) continue;
    out[key.slice(prefix.length)] = String(Array.isArray(value) ? value[value.length - 1] : value);
  }
  return out;
}
