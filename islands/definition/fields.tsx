// Labelled inputs the definition editor's pieces are built from, styled by kiln.css's .field rules.
import { useId, type ReactNode } from "react";
import { Icon } from "../lib/Icon";
import { pencil, plus, trash } from "../lib/icons";

interface Labelled {
  label: string;
  hint?: string;
}

function Field({ label, hint, children }: Labelled & { children: ReactNode }) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      {children}
      {hint ? <span className="field-hint">{hint}</span> : null}
    </label>
  );
}

/** The <datalist> for an input's suggestions; render it next to the input that names it. */
export function Suggestions({ id, values }: { id: string; values: readonly string[] }) {
  return (
    <datalist id={id}>
      {values.map((v) => (
        <option key={v} value={v} />
      ))}
    </datalist>
  );
}

export function TextField({ label, hint, value, onChange, placeholder, mono, suggestions, name, maxLength }: Labelled & {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  mono?: boolean;
  suggestions?: readonly string[];
  name?: string;
  maxLength?: number;
}) {
  const listId = useId();
  return (
    <Field label={label} hint={hint}>
      <input
        type="text"
        name={name}
        className={mono ? "defedit-mono" : undefined}
        // Code (a command, a path, a pattern) reads left to right in every locale; free text takes
        // the direction of what is typed (a name in Arabic in an English page, and the other way).
        dir={mono ? "ltr" : "auto"}
        value={value}
        placeholder={placeholder}
        spellCheck={mono ? false : undefined}
        list={suggestions ? listId : undefined}
        maxLength={maxLength}
        onChange={(e) => onChange(e.target.value)}
      />
      {suggestions ? <Suggestions id={listId} values={suggestions} /> : null}
    </Field>
  );
}

export function TextAreaField({ label, hint, value, onChange, mono, rows = 4 }: Labelled & { value: string; onChange: (value: string) => void; mono?: boolean; rows?: number }) {
  return (
    <Field label={label} hint={hint}>
      <textarea className={mono ? "defedit-mono" : undefined} dir={mono ? "ltr" : "auto"} rows={rows} value={value} spellCheck={mono ? false : undefined} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}

/**
 * A number input whose text may be blank while typed; a blank or broken number is reported as "".
 * `required` lets the browser refuse a blank one when its form is submitted.
 */
export function NumberField({ label, hint, value, onChange, min, max, required, step = 1 }: Labelled & {
  value: number | "";
  onChange: (value: number | "") => void;
  min?: number;
  max?: number;
  required?: boolean;
  /** "any" for a figure with decimals (a threshold) */
  step?: number | "any";
}) {
  return (
    <Field label={label} hint={hint}>
      <input
        type="number"
        inputMode={step === "any" ? "decimal" : "numeric"}
        value={value}
        min={min}
        max={max}
        step={step}
        required={required}
        onChange={(e) => onChange(e.target.value === "" || !Number.isFinite(e.target.valueAsNumber) ? "" : e.target.valueAsNumber)}
      />
    </Field>
  );
}

export function SelectField({ label, hint, value, options, onChange }: Labelled & { value: string; options: readonly { value: string; label: string }[]; onChange: (value: string) => void }) {
  // A value the list does not offer (a hand-written definition) stays visible instead of jumping.
  const known = options.some((o) => o.value === value);
  return (
    <Field label={label} hint={hint}>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {known ? null : <option value={value}>{value}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function CheckField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="check-row">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** Opens an entry of a list for editing (data-edit: the browser tests find it by that). */
export function EditButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="icon-btn" title={label} aria-label={label} data-edit="" onClick={onClick}>
      <Icon path={pencil} size={20} />
    </button>
  );
}

export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="icon-btn defedit-remove" title={label} aria-label={label} onClick={onClick}>
      <Icon path={trash} size={20} />
    </button>
  );
}

export function AddButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="btn defedit-add" onClick={onClick}>
      <Icon path={plus} size={20} />
      <span>{label}</span>
    </button>
  );
}

/** A two-or-more-way switch (editor/json, command/signal): buttons, the chosen one pressed. */
export function Segmented<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: readonly { value: T; label: string }[]; onChange: (value: T) => void }) {
  return (
    <div className="defedit-seg" role="group" aria-label={label}>
      {options.map((o) => (
        <button key={o.value} type="button" aria-pressed={o.value === value} data-value={o.value} onClick={() => onChange(o.value)}>
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** Immutable list helpers for the row editors. */
export function replaceAt<T>(list: readonly T[], index: number, item: T): T[] {
  return list.map((old, i) => (i === index ? item : old));
}

export function removeAt<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, i) => i !== index);
}

export function moveBy<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= list.length) return [...list];
  const next = [...list];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}
