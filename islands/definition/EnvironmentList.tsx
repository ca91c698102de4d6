// A template's environments: the supported list, each type at
// most once, edited in an overlay (editing replaces the entry), removed, or added from the types
// not there yet; and the default environment, reset to a listed entry whenever the list changes.
import { ENVIRONMENT_TYPES } from "../../core/definition/constants";
import { useT } from "../lib/i18n";
import { environmentToForm, unusedEnvironmentTypes, withEnvironmentList, type EnvironmentForm, type EnvironmentsForm } from "./convert";
import { EnvironmentEditor } from "./EnvironmentEditor";
import { AddButton, EditButton, RemoveButton, SelectField, removeAt } from "./fields";
import { SubDialog } from "./SubDialog";
import { useListEditing } from "./useListEditing";

export function EnvironmentList({ value, onChange }: { value: EnvironmentsForm; onChange: (value: EnvironmentsForm) => void }) {
  const t = useT();
  const addable = unusedEnvironmentTypes(value.list, ENVIRONMENT_TYPES);
  const typeLabel = (type: string) => ((ENVIRONMENT_TYPES as readonly string[]).includes(type) ? t(`definition.envType.${type}`) : type);
  const change = (list: EnvironmentForm[]) => {
    const next = withEnvironmentList(value, list);
    if (next) onChange(next);
  };
  const list = useListEditing(value.list, change);
  const { editing } = list;

  return (
    <div className="stack defedit-environments">
      {value.list.length === 0 ? (
        <p className="muted">{t("definition.environments.empty")}</p>
      ) : (
        <ul className="list defedit-items">
          {value.list.map((env, i) => (
            <li className="list-row" key={env.type} data-environment={env.type}>
              <div>
                <strong>{typeLabel(env.type)}</strong>
                {env.type === value.defaultType ? <span className="badge">{t("definition.environments.default")}</span> : null}
                {env.type === "docker" ? <code className="small defedit-summary">{env.image || t("definition.env.defaultImage")}</code> : null}
              </div>
              <div className="defedit-item-actions">
                <EditButton label={t("definition.edit")} onClick={() => list.edit(i, env)} />
                <RemoveButton label={t("definition.remove")} onClick={() => change(removeAt(value.list, i))} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <div>
        {addable.length > 0 ? (
          <AddButton label={t("definition.environments.add")} onClick={() => list.add(environmentToForm({ type: addable[0] }))} />
        ) : (
          <p className="muted small">{t("definition.environments.allAdded")}</p>
        )}
      </div>
      {value.list.length > 0 ? (
        <SelectField
          label={t("definition.environments.defaultLabel")}
          hint={t("definition.environments.defaultHint")}
          value={value.defaultType}
          options={value.list.map((env) => ({ value: env.type, label: typeLabel(env.type) }))}
          onChange={(defaultType) => onChange({ ...value, defaultType })}
        />
      ) : null}
      {editing ? (
        <SubDialog title={t(editing.isNew ? "definition.environments.addTitle" : "definition.environments.editTitle")} onApply={() => list.apply()} onCancel={list.cancel}>
          <EnvironmentEditor
            value={editing.draft}
            types={unusedEnvironmentTypes(value.list, ENVIRONMENT_TYPES, editing.isNew ? undefined : value.list[editing.index]?.type)}
            onChange={list.setDraft}
          />
        </SubDialog>
      ) : null}
    </div>
  );
}
