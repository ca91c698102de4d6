// One step's fields: a type select and the fields of that type, both from the
// catalogue the list edits (a template's steps unless told), and for a template's steps the
// condition under which it runs (PufferPanel v3's `if`, a CEL expression).
import { JAVA_VERSIONS } from "../../core/definition/constants";
import { useT } from "../lib/i18n";
import type { StepValue } from "./convert";
import { TEMPLATE_STEPS, listValue, newStep, numberValue, stepFields, type StepCatalogue, type StepField } from "./step-fields";
import { CheckField, NumberField, SelectField, TextAreaField, TextField } from "./fields";
import { ConditionField, withCondition } from "./ConditionField";
import { StringList } from "./StringList";

export function StepForm({ value, onChange, catalogue = TEMPLATE_STEPS }: { value: StepValue; onChange: (value: StepValue) => void; catalogue?: StepCatalogue }) {
  const t = useT();
  return (
    <div className="stack">
      <SelectField
        label={t("definition.step.type")}
        value={value.type}
        options={catalogue.types.map((type) => ({ value: type, label: t(`definition.stepType.${type}`) }))}
        // Another type has other fields: start it afresh rather than carry fields it does not have
        // (its condition stays: it is about when, not what).
        onChange={(type) => onChange(withCondition(newStep(type, catalogue), value.if))}
      />
      {stepFields(value.type, catalogue).map((field) => (
        <StepFieldInput key={`${value.type}.${field.key}`} field={field} value={value[field.key]} onChange={(v) => onChange({ ...value, [field.key]: v })} />
      ))}
      {catalogue === TEMPLATE_STEPS ? <ConditionField value={value.if} onChange={(condition) => onChange(withCondition(value, condition))} /> : null}
    </div>
  );
}

function StepFieldInput({ field, value, onChange }: { field: StepField; value: unknown; onChange: (value: unknown) => void }) {
  const t = useT();
  const label = t(field.labelKey ?? `definition.stepField.${field.key}`);
  switch (field.kind) {
    case "list":
      return <StringList label={label} value={listValue(value)} onChange={onChange} mono />;
    case "boolean":
      return <CheckField label={label} checked={value !== false} onChange={onChange} />;
    case "multiline":
      return <TextAreaField label={label} value={String(value ?? "")} onChange={onChange} mono rows={8} />;
    case "number":
      return <NumberField label={label} value={numberValue(value)} onChange={onChange} min={field.min} max={field.max} required />;
    case "select":
      return (
        <SelectField
          label={label}
          value={String(value ?? "")}
          options={(field.options ?? []).map((option) => ({ value: option, label: t(`definition.stepValue.${field.key}.${option}`) }))}
          onChange={onChange}
        />
      );
    case "java":
      return (
        <SelectField
          label={label}
          value={String(value ?? "")}
          options={JAVA_VERSIONS.map((v) => ({ value: String(v), label: `Java ${v}` }))}
          onChange={(v) => onChange(Number(v))}
        />
      );
    default:
      return <TextField label={label} value={String(value ?? "")} onChange={onChange} mono suggestions={field.suggestions} maxLength={field.maxLength} />;
  }
}
