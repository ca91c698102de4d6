// One text input of a server-rendered form with its label, the error of the last submit when it is
// about this field (./form-errors), and a hint. The hint and the error both describe the input
// (aria-describedby), so a screen reader reads them with it.
import type { InputHTMLAttributes } from "react";
import type { DataAttributes } from "../../islands/lib/Dialog";
import type { FormErrors } from "./form-errors";

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "name"> {
  name: string;
  label: string;
  errors: FormErrors;
  hint?: string;
  /** marks on the field around the input (data-providers: which email providers use it) */
  fieldData?: DataAttributes;
}

export function TextField({ name, label, errors, hint, fieldData, ...input }: TextFieldProps) {
  const invalid = errors.input(name);
  const hintId = hint ? `${name}-hint`.replace(/[^A-Za-z0-9_-]/g, "-") : undefined;
  const describedBy = [hintId, invalid["aria-describedby"]].filter(Boolean).join(" ") || undefined;
  return (
    <label className="field" {...fieldData}>
      <span className="field-label">{label}</span>
      <input type="text" name={name} {...input} aria-invalid={invalid["aria-invalid"]} aria-describedby={describedBy} />
      {errors.message(name)}
      {hint ? (
        <span className="field-hint" id={hintId}>
          {hint}
        </span>
      ) : null}
    </label>
  );
}
