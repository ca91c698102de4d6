// One step's fields (spec: Step types): a type select and the fields of that type.
import { JAVA_VERSIONS, STEP_TYPES } from "../../core/definition/constants";
import { useT } from "../lib/i18n";
import type { StepValue } from "./convert";
import { listValue, newStep, stepFields, type StepField } from "./step-fields";
import { CheckField, SelectField, TextAreaField, TextField } from "./fields";
import { StringList } from "./StringList";

export function StepForm({ value, onChange }: { value: StepValue; onChange: (value: StepValue) => void }) {
  const t = useT();
  return (
    <div className="stack">
      <SelectField
        label={t("definition.step.type")}
        value={value.type}
        options={STEP_TYPES.map((type) => ({ value: type, label: t(`definition.stepType.${type}`) }))}
        // Another type has other fields: start it afresh rather than carry fields it does not have.
        onChange={(type) => onChange(newStep(type))}
      />
      {stepFields(value.type).map((field) => (
        <StepFieldInput key={`${value.type}.${field.key}`} field={field} value={value[field.key]} onChange={(v) => onChange({ ...value, [field.key]: v })} />
      ))}
    </div>
  );
}

function StepFieldInput({ field, value, onChange }: { field: StepField; value: unknown; onChange: (value: unknown) => void }) {
  const t = useT();
  const label = t(`definition.stepField.${field.key}`);
  switch (field.kind) {
    case "list":
      return <StringList label={label} value={listValue(value)} onChange={onChange} mono />;
    case "boolean":
      return <CheckField label={label} checked={value !== false} onChange={onChange} />;
    case "multiline":
      return <TextAreaField label={label} value={String(value ?? "")} onChange={onChange} mono rows={8} />;
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
      return <TextField label={label} value={String(value ?? "")} onChange={onChange} mono suggestions={field.suggestions} />;
  }
}
