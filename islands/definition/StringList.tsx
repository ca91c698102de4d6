// A list of strings (download URLs, commands): one input per entry, a remove button, and Add.
import { useT } from "../lib/i18n";
import { AddButton, RemoveButton, removeAt, replaceAt } from "./fields";

export function StringList({ label, value, onChange, mono }: { label: string; value: readonly string[]; onChange: (value: string[]) => void; mono?: boolean }) {
  const t = useT();
  return (
    <fieldset className="bare defedit-group">
      <legend className="field-label">{label}</legend>
      {value.length === 0 ? <p className="muted small">{t("definition.list.empty")}</p> : null}
      {value.map((entry, i) => (
        <div className="defedit-row defedit-row-1" key={i}>
          <input
            type="text"
            className={mono ? "defedit-mono" : undefined}
            aria-label={`${label} ${i + 1}`}
            value={entry}
            spellCheck={mono ? false : undefined}
            onChange={(e) => onChange(replaceAt(value, i, e.target.value))}
          />
          <RemoveButton label={t("definition.remove")} onClick={() => onChange(removeAt(value, i))} />
        </div>
      ))}
      <div>
        <AddButton label={t("definition.list.add")} onClick={() => onChange([...value, ""])} />
      </div>
    </fieldset>
  );
}
