// One template variable: name, display, description, type, value,
// required, user-editable, the options offered for types option and string, and the checks of
// text and whole-number values (./VariableRulesFields).
import { useId } from "react";
import { VARIABLE_TYPES } from "../../core/definition/constants";
import { useT } from "../lib/i18n";
import { changeVariableType, variableOptions, type Pair, type VariableEntry, type VariableOption } from "./convert";
import { CheckField, NumberField, SelectField, Suggestions, TextAreaField, TextField } from "./fields";
import { KeyValueEditor } from "./KeyValueEditor";
import { Markdown } from "../lib/Markdown";
import { VariableRulesFields } from "./VariableRulesFields";

const optionsToPairs = (options: VariableOption[]): Pair[] => options.map((o) => ({ key: String(o.value), value: o.display }));

/** Back to options; a row whose text still matches its old value keeps that value's type (a number stays a number). */
function pairsToOptions(pairs: Pair[], old: VariableOption[]): VariableOption[] {
  return pairs.map((p, i) => ({ ...old[i], value: old[i] && String(old[i].value) === p.key ? old[i].value : p.key, display: p.value }));
}

export function VariableForm({ value, onChange }: { value: VariableEntry; onChange: (value: VariableEntry) => void }) {
  const t = useT();
  const suggestionsId = useId();
  const v = value.variable;
  const type = typeof v.type === "string" ? v.type : "string";
  const options = variableOptions(v);
  const set = (patch: Record<string, unknown>) => onChange({ ...value, variable: { ...v, ...patch } });
  const text = (key: string) => (v[key] === undefined || v[key] === null ? "" : String(v[key]));

  let valueInput;
  if (type === "boolean") {
    valueInput = <CheckField label={t("definition.variable.valueOn")} checked={v.value === true || v.value === "true"} onChange={(on) => set({ value: on })} />;
  } else if (type === "integer") {
    const n = typeof v.value === "number" ? v.value : v.value === "" || v.value === undefined ? "" : Number(v.value);
    valueInput = <NumberField label={t("definition.variable.value")} value={Number.isFinite(n) ? n : ""} onChange={(n) => set({ value: n })} />;
  } else if (type === "option") {
    const index = options.findIndex((o) => String(o.value) === text("value"));
    valueInput = (
      <SelectField
        label={t("definition.variable.value")}
        value={index < 0 ? text("value") : `opt:${index}`}
        options={options.map((o, i) => ({ value: `opt:${i}`, label: o.display || String(o.value) }))}
        onChange={(chosen) => set({ value: options[Number(chosen.slice(4))]?.value ?? chosen })}
      />
    );
  } else {
    valueInput = (
      <label className="field">
        <span className="field-label">{t("definition.variable.value")}</span>
        <input type="text" value={text("value")} list={options.length > 0 ? suggestionsId : undefined} onChange={(e) => set({ value: e.target.value })} />
        {options.length > 0 ? <Suggestions id={suggestionsId} values={options.map((o) => String(o.value))} /> : null}
      </label>
    );
  }

  return (
    <div className="stack">
      <div className="defedit-pair">
        <TextField label={t("definition.variable.name")} hint={t("definition.variable.nameHint")} value={value.name} mono onChange={(name) => onChange({ ...value, name })} />
        <TextField label={t("definition.variable.display")} value={text("display")} onChange={(display) => set({ display })} />
      </div>
      <TextAreaField label={t("definition.variable.desc")} hint={t("definition.variable.descHint")} value={text("desc")} onChange={(desc) => set({ desc })} rows={3} />
      {text("desc").trim() ? (
        <div className="defedit-desc-preview" data-desc-preview="">
          <span className="field-label">{t("definition.variable.descPreview")}</span>
          <Markdown source={text("desc")} className="field-hint" />
        </div>
      ) : null}
      <div className="defedit-pair">
        <SelectField
          label={t("definition.variable.type")}
          value={type}
          options={VARIABLE_TYPES.map((vt) => ({ value: vt, label: t(`definition.variableType.${vt}`) }))}
          onChange={(next) => onChange({ ...value, variable: changeVariableType(v, next) })}
        />
        {valueInput}
      </div>
      <div className="defedit-checks">
        <CheckField label={t("definition.variable.required")} checked={v.required !== false} onChange={(required) => set({ required })} />
        <CheckField label={t("definition.variable.userEdit")} checked={v.userEdit !== false} onChange={(userEdit) => set({ userEdit })} />
        {/* Several arguments in one value (JVM arguments): split into words where it stands alone in a command line. */}
        {type === "string" ? <CheckField label={t("definition.variable.splitWords")} checked={v.splitWords === true} onChange={(splitWords) => set({ splitWords })} /> : null}
      </div>
      {type === "string" || type === "integer" ? <VariableRulesFields type={type} rules={v.rules} onChange={(rules) => set({ rules })} /> : null}
      {type === "option" || type === "string" ? (
        <KeyValueEditor
          label={t("definition.variable.options")}
          keyLabel={t("definition.variable.optionValue")}
          valueLabel={t("definition.variable.optionDisplay")}
          addLabel={t("definition.variable.addOption")}
          value={optionsToPairs(options)}
          onChange={(pairs) => set({ options: pairsToOptions(pairs, options) })}
        />
      ) : null}
    </div>
  );
}
