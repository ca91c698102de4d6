// Key-value map editor: rows of key and value, a remove button each, and an
// Add row. It edits rows, not a record, so a half-typed or repeated key never loses a row; the
// record is made when the definition is (convert.ts: pairsToRecord).
import { useT } from "../lib/i18n";
import type { Pair } from "./convert";
import { AddButton, RemoveButton, removeAt, replaceAt } from "./fields";
import { useFocusAdded } from "./focus-added";

export interface KeyValueEditorProps {
  value: readonly Pair[];
  onChange: (value: Pair[]) => void;
  keyLabel: string;
  valueLabel: string;
  /** a name for the whole map, read out to screen readers */
  label: string;
  /** the Add button's text, when "Add row" says too little */
  addLabel?: string;
}

export function KeyValueEditor({ value, onChange, keyLabel, valueLabel, label, addLabel }: KeyValueEditorProps) {
  const t = useT();
  const { list, added } = useFocusAdded<HTMLFieldSetElement>(value.length);
  return (
    <fieldset className="bare defedit-group" ref={list}>
      <legend className="field-label">{label}</legend>
      {value.length === 0 ? (
        <p className="muted small">{t("definition.map.empty")}</p>
      ) : (
        <div className="defedit-row defedit-row-2 defedit-row-head" aria-hidden="true">
          <span>{keyLabel}</span>
          <span>{valueLabel}</span>
        </div>
      )}
      {value.map((pair, i) => (
        <div className="defedit-row defedit-row-2" key={i} data-entry="">
          <input type="text" className="defedit-mono" aria-label={`${keyLabel} ${i + 1}`} value={pair.key} spellCheck={false} onChange={(e) => onChange(replaceAt(value, i, { ...pair, key: e.target.value }))} />
          <input type="text" className="defedit-mono" aria-label={`${valueLabel} ${i + 1}`} value={pair.value} spellCheck={false} onChange={(e) => onChange(replaceAt(value, i, { ...pair, value: e.target.value }))} />
          <RemoveButton label={t("definition.remove")} onClick={() => onChange(removeAt(value, i))} />
        </div>
      ))}
      <div>
        <AddButton label={addLabel ?? t("definition.map.add")} onClick={() => (added(), onChange([...value, { key: "", value: "" }]))} />
      </div>
    </fieldset>
  );
}
