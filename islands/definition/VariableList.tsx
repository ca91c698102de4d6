// Variable list: items show the display name and can be added, edited or
// removed. A name must be non-blank without spaces, else a toast and no save; a
// new variable joins the list only when applied, so cancelling drops it.
import { VARIABLE_TYPES } from "../../core/definition/constants";
import { useT } from "../lib/i18n";
import { showToast } from "../shell/toasts";
import { isValidVariableName, newVariable, type VariableEntry } from "./convert";
import { AddButton, EditButton, RemoveButton, removeAt } from "./fields";
import { SubDialog } from "./SubDialog";
import { VariableForm } from "./VariableForm";
import { useListEditing } from "./useListEditing";

export function VariableList({ value, onChange }: { value: readonly VariableEntry[]; onChange: (value: VariableEntry[]) => void }) {
  const t = useT();
  const list = useListEditing(value, onChange);
  const { editing } = list;

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
    list.apply();
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
                  <EditButton label={t("definition.edit")} onClick={() => list.edit(i, entry)} />
                  <RemoveButton label={t("definition.remove")} onClick={() => onChange(removeAt(value, i))} />
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <div>
        <AddButton label={t("definition.variable.add")} onClick={() => list.add(newVariable())} />
      </div>
      {editing ? (
        <SubDialog title={t(editing.isNew ? "definition.variable.addTitle" : "definition.variable.editTitle")} onApply={apply} onCancel={list.cancel}>
          <VariableForm value={editing.draft} onChange={list.setDraft} />
        </SubDialog>
      ) : null}
    </div>
  );
}
