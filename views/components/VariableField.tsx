// One template variable as a form field, by its type (spec section 3 "Template variable"):
// a checkbox for boolean, a select for option, a number for integer, a text area for a multi-line
// string, else text; its description
// (markdown) below it as the hint. The variable's bounds and lengths (its rules, issue 18) are
// told to the browser too, so a form is stopped before it is sent; the server checks them again,
// and the pattern, which HTML would read as a whole-value match, only there.
import type { Variable } from "../../core/definition";
import { Markdown } from "../../islands/lib/Markdown";

export function VariableField({ name, variable, value, prefix = "var." }: { name: string; variable: Variable; value?: string | number | boolean; prefix?: string }) {
  const current = value ?? variable.value;
  const field = `${prefix}${name}`;
  const label = variable.display || name;
  if (variable.type === "boolean") {
    return (
      <div className="field">
        {/* An unticked box sends nothing; the hidden "false" before it makes that explicit. */}
        <input type="hidden" name={field} value="false" />
        <label className="check-row">
          <input type="checkbox" name={field} value="true" defaultChecked={current === true || current === "true"} />
          <span>{label}</span>
        </label>
        {variable.desc ? <Markdown source={variable.desc} className="field-hint" /> : null}
      </div>
    );
  }
  return (
    <label className="field">
      <span className="field-label">{label}{variable.required ? " *" : ""}</span>
      {variable.type === "option" ? (
        <select name={field} defaultValue={String(current)} required={variable.required}>
          {(variable.options ?? []).map((o) => (
            <option key={String(o.value)} value={String(o.value)}>{o.display || String(o.value)}</option>
          ))}
        </select>
      ) : variable.multiLine ? (
        <textarea name={field} defaultValue={String(current)} required={variable.required} rows={4} />
      ) : variable.type === "integer" ? (
        <input type="number" step={1} name={field} defaultValue={String(current)} required={variable.required} min={variable.rules?.min} max={variable.rules?.max} />
      ) : (
        <input type="text" name={field} defaultValue={String(current)} required={variable.required} minLength={variable.rules?.minLength} maxLength={variable.rules?.maxLength} />
      )}
      {variable.desc ? <Markdown source={variable.desc} className="field-hint" /> : null}
    </label>
  );
}

/** The variables of a submitted form (fields named "var.<name>"); for a boolean the last value wins. */
export function variablesFromForm(form: Record<string, unknown>, prefix = "var."): Record<string, string> {
  // No prototype: a field named "var.__proto__" becomes a name the caller refuses, not a prototype.
  const out: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(form)) {
    if (!key.startsWith(prefix)) continue;
    out[key.slice(prefix.length)] = String(Array.isArray(value) ? value[value.length - 1] : value);
  }
  return out;
}
