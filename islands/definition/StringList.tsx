// A list of strings (download URLs, commands, arguments): one input per entry, a remove button, and
// Add, which puts the caret in the new entry. Blank entries are left out by whoever stores the list
// (a step when applied, the command line as it is written).
import { useT } from "../lib/i18n";
import { AddButton, RemoveButton, removeAt, replaceAt } from "./fields";
import { useFocusAdded } from "./focus-added";

export function StringList({ label, hint, value, onChange, mono }: { label: string; hint?: string; value: readonly string[]; onChange: (value: string[]) => void; mono?: boolean }) {
  const t = useT();
  const { list, added } = useFocusAdded<HTMLFieldSetElement>(value.length);
  return (
    <fieldset className="bare defedit-group" ref={list}>
      <legend className="field-label">{label}</legend>
      {hint ? <p className="field-hint">{hint}</p> : null}
      {value.length === 0 ? <p className="muted small">{t("definition.list.empty")}</p> : null}
      {value.map((entry, i) => (
        <div className="defedit-row defedit-row-1" key={i} data-entry="">
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
        <AddButton label={t("definition.list.add")} onClick={() => (added(), onChange([...value, ""]))} />
      </div>
    </fieldset>
  );
}
