// One template variable as a form field, by its type: a checkbox for boolean, a select for
// option, a number for integer, a text area for a multi-line string, else text; its description
// (markdown) below it as the hint. The variable's bounds and lengths (its rules) are told to the
// browser too, so a form is stopped before it is sent; the server checks them again, and the
// pattern, which HTML would read as a whole-value match, only there. Markup the server's views
// (Add server, the Settings tab) and the variable groups island both render, so it lives with
// the islands (views are server-only; test/architecture.test.ts). A template may come from a
// repository, so its names are shown by the rule of untrusted labels (./ShownLabel, `hint` its
// tooltip); a field is always sent under the variable's own name.
import type { Variable } from "../../core/definition";
import { VARIABLE_FIELD_PREFIX } from "../../core/definition/variable-form";
import { Markdown } from "./Markdown";
import { ShownLabel } from "./ShownLabel";
import { shownLabel } from "../../core/text/shown-label";

export function VariableField({ name, variable, value, hint, prefix = VARIABLE_FIELD_PREFIX }: { name: string; variable: Variable; value?: string | number | boolean; /** the tooltip of a name shown with escapes, in the reader's language */ hint: string; prefix?: string }) {
  const current = value ?? variable.value;
  const field = `${prefix}${name}`;
  const label = <ShownLabel text={variable.display || name} hint={hint} dir="auto" />;
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
            <option key={String(o.value)} value={String(o.value)}>{shownLabel(o.display || String(o.value))}</option>
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
