// Variable groups (PufferPanel v3): named sets of variables shown together on a server's
// settings, in their order; a group with a condition shows only while it holds. Edited like the
// variable list: a row per group, a dialog to add or edit one; fields the dialog does not show
// are kept.
import { useT } from "../lib/i18n";
import type { Json } from "./convert";
import { ConditionBadge, ConditionField, withCondition } from "./ConditionField";
import { AddButton, CheckField, EditButton, NumberField, RemoveButton, TextField, removeAt } from "./fields";
import { SubDialog } from "./SubDialog";
import { useListEditing } from "./useListEditing";

const names = (group: Json): string[] => (Array.isArray(group.variables) ? group.variables.filter((v): v is string => typeof v === "string") : []);

export function GroupList({ value, variables, onChange }: { value: readonly Json[]; variables: readonly string[]; onChange: (value: Json[]) => void }) {
  const t = useT();
  const list = useListEditing(value, onChange);
  const { editing } = list;
  return (
    <div className="stack" data-groups="">
      {value.length === 0 ? (
        <p className="muted">{t("definition.groups.empty")}</p>
      ) : (
        <ul className="list defedit-items">
          {value.map((group, i) => (
            <li className="list-row" key={i} data-group={i}>
              <div>
                <strong>{typeof group.display === "string" && group.display ? group.display : t("definition.groups.untitled")}</strong>
                <code className="small defedit-summary">{names(group).join(", ")}</code>
                {typeof group.if === "string" && group.if.trim() ? <ConditionBadge condition={group.if} /> : null}
              </div>
              <div className="defedit-item-actions">
                <EditButton label={t("definition.edit")} onClick={() => list.edit(i, group)} />
                <RemoveButton label={t("definition.remove")} onClick={() => onChange(removeAt(value, i))} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <div>
        <AddButton
          label={t("definition.groups.add")}
          onClick={() => list.add({ display: "", description: "", variables: [], order: value.length + 1 })}
        />
      </div>
      {editing ? (
        <SubDialog title={t(editing.isNew ? "definition.groups.addTitle" : "definition.groups.editTitle")} onApply={() => list.apply()} onCancel={list.cancel}>
          <GroupForm value={editing.draft} variables={variables} onChange={list.setDraft} />
        </SubDialog>
      ) : null}
    </div>
  );
}

function GroupForm({ value, variables, onChange }: { value: Json; variables: readonly string[]; onChange: (value: Json) => void }) {
  const t = useT();
  const chosen = names(value);
  // Names the group lists that are no variable (yet) stay listed, so nothing is dropped unseen.
  const offered = [...variables, ...chosen.filter((n) => !variables.includes(n))];
  const toggle = (name: string, on: boolean) => onChange({ ...value, variables: on ? [...chosen, name] : chosen.filter((n) => n !== name) });
  return (
    <div className="stack">
      <TextField label={t("definition.groups.display")} value={typeof value.display === "string" ? value.display : ""} onChange={(display) => onChange({ ...value, display })} />
      <TextField label={t("definition.groups.description")} value={typeof value.description === "string" ? value.description : ""} onChange={(description) => onChange({ ...value, description })} />
      <NumberField label={t("definition.groups.order")} value={typeof value.order === "number" ? value.order : ""} onChange={(order) => onChange({ ...value, order: order === "" ? 0 : order })} />
      <ConditionField value={value.if} onChange={(condition) => onChange(withCondition(value, condition))} />
      <fieldset className="bare defedit-group">
        <legend className="field-label">{t("definition.groups.variables")}</legend>
        {offered.length === 0 ? <p className="muted small">{t("definition.variable.empty")}</p> : null}
        {offered.map((name) => (
          <CheckField key={name} label={name} checked={chosen.includes(name)} onChange={(on) => toggle(name, on)} />
        ))}
      </fieldset>
    </div>
  );
}
