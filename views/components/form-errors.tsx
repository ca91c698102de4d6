// A failed form's error where it belongs: beside the field the catalogue error names
// (metadata.field, from the zod path or the service), with the input marked aria-invalid and
// pointing at the message through aria-describedby; above the form only when no field of the
// form owns it. All server-rendered, so it works without script.
import type { ReactNode } from "react";
import { Alert } from "./Alert";

export interface FormError {
  message: string;
  /** the field the error is about (error.metadata.field), when it names one */
  field?: string;
}

export interface FormErrors {
  /** the alert above the form, for an error no field of this form owns */
  alert: ReactNode;
  /** props to spread on the input called `name` */
  input(name: string): { "aria-invalid"?: true; "aria-describedby"?: string };
  /** the message under the input called `name` */
  message(name: string): ReactNode;
}

/**
 * The error display of one form. `form` makes the message ids unique on the page; `fields` are
 * the names of the inputs this form shows (an error about any other field goes in the alert).
 */
export function formErrors(form: string, error: FormError | undefined, fields: readonly string[]): FormErrors {
  const owner = error?.field !== undefined && fields.includes(error.field) ? error.field : undefined;
  const id = (name: string) => `${form}-${name}-error`.replace(/[^A-Za-z0-9_-]/g, "-");
  return {
    alert: error && owner === undefined ? <Alert kind="error">{error.message}</Alert> : null,
    input: (name) => (name === owner ? { "aria-invalid": true, "aria-describedby": id(name) } : {}),
    message: (name) =>
      name === owner ? (
        <span className="field-error" id={id(name)} role="alert">
          {error!.message}
        </span>
      ) : null,
  };
}

/** The field of a catalogue error's metadata, when it names one. */
export function errorField(metadata: Record<string, unknown> | undefined): string | undefined {
  return typeof metadata?.field === "string" ? metadata.field : undefined;
}
