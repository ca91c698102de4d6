// Variable list (spec: Template editor): items show the display name and can be added, edited or
// removed. A name must be non-blank without spaces (spec section 5), else a toast and no save; a
// new variable joins the list only when applied, so cancelling drops it (spec section 4).
import { useState } from "react";
import { VARIABLE_TYPES } from "../../core/definition/constants";
import { useT } from "../lib/i18n";
import { showToast } from "../shell/toasts";
import { isValidVariableName, newVariable, type VariableEntry } from "./convert";
import { AddButton, EditButton, RemoveButton, removeAt, replaceAt } from "./fields";
import { SubDialog } from "./SubDialog";
import { VariableForm } from "./VariableForm";

interface Editing {
  index: number;
  isNew: boolean;
  draft: VariableEntry;
}

export function VariableList({ value, onChange }: { value: readonly VariableEntry[]; onChange: (value: VariableEntry[]) => void }) {
  const t = useT();
  const [editing, setEditing] = useState<Editing | null>(null);

  function apply() {
    if (!editing) return;
    const { draft, index, isNew } = editing;
    if (!isValidVariableName(draft.name)) {
      showToast(t("definition.variable.nameInvalid"), { error: true });
      return;
    }
    if (value.some((other, i) => other.name === draft.name && (isNew || i !== index))) {
      showToast(t("definition.variable.nameTaken", { name: draft.name }), { error: true });
      return;
    }
    onChange(isNew ? [...value, draft] : replaceAt(value, index, draft));
    setEditing(null);
  }

  return (
    <div className="stack">
      {value.length === 0 ? (
        <p className="muted">{t("definition.variable.empty")}</p>
      ) : (
        <ul className="list defedit-items">
          {value.map((entry, i) => {
            const type = String(entry.variable.type ?? "string");
            const display = typeof entry.variable.display === "string" && entry.variable.display !== "" ? entry.variable.display : entry.name;
            return (
              <li className="list-row" key={entry.name} data-variable={entry.name}>
                <div>
                  <strong>{display}</strong>
                  <span className="muted small">
                    <code>{entry.name}</code> · {(VARIABLE_TYPES as readonly string[]).includes(type) ? t(`definition.variableType.${type}`) : type}
                  </span>
                </div>
                <div className="defedit-item-actions">
                  <EditButton label={t("definition.edit")} onClick={() => setEditing({ index: i, isNew: false, draft: entry })} />
                  <RemoveButton label={t("definition.remove")} onClick={() => onChange(removeAt(value, i))} />
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <div>
        <AddButton label={t("definition.variable.add")} onClick={() => setEditing({ index: value.length, isNew: true, draft: newVariable() })} />
      </div>
      {editing ? (
        <SubDialog title={t(editing.isNew ? "definition.variable.addTitle" : "definition.variable.editTitle")} onApply={apply} onCancel={() => setEditing(null)}>
          <VariableForm value={editing.draft} onChange={(draft) => setEditing({ ...editing, draft })} />
        </SubDialog>
      ) : null}
    </div>
  );
}
