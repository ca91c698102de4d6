// A task's triggers (docs/tasks.md "Triggers") inside the Tasks tab's plain New/Edit task form.
// Without script it is a textarea of the triggers as JSON, named `triggers`, so the form still
// works; once hydrated it becomes a list: each trigger with its type's fields and a remove button,
// and an "add" row offering the types this user may use (the server says which), with a hidden
// `triggers` input that always holds the list as JSON.
import { useEffect, useState } from "react";
import { MAX_TRIGGERS } from "../core/tasks/constants";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { AddButton, RemoveButton, SelectField, removeAt, replaceAt } from "./definition/fields";
import { TriggerFields, newTrigger, type TriggerValue } from "./tasks/TriggerFields";

export interface TaskTriggersProps {
  /** the task's triggers as stored (empty for none) */
  initial: TriggerValue[];
  /** the trigger types this user may put on a task (server/services/tasks usableTriggers) */
  types: string[];
}

function TaskTriggersView({ initial, types }: TaskTriggersProps) {
  const t = useT();
  const [triggers, setTriggers] = useState<TriggerValue[]>(initial);
  const [adding, setAdding] = useState(types[0] ?? "");
  // False on the server and in the first browser render, which must match it: the textarea.
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);

  if (!enhanced) {
    return (
      <fieldset className="task-triggers" data-testid="task-triggers-json">
        <legend className="field-label">{t("tasks.triggers.title")}</legend>
        <label className="field">
          <span className="sr-only">{t("tasks.triggers.title")}</span>
          <textarea name="triggers" className="defedit-mono" rows={4} spellCheck={false} dir="ltr" defaultValue={JSON.stringify(initial, null, 2)} />
          <span className="field-hint">{t("tasks.triggers.jsonHint")}</span>
        </label>
      </fieldset>
    );
  }

  const full = triggers.length >= MAX_TRIGGERS;
  return (
    <fieldset className="task-triggers" data-testid="task-triggers-editor">
      <legend className="field-label">{t("tasks.triggers.title")}</legend>
      <p className="field-hint">{t("tasks.triggers.intro", { max: MAX_TRIGGERS })}</p>
      {triggers.length === 0 ? <p className="muted small">{t("tasks.triggers.none")}</p> : null}
      <ul className="task-trigger-list">
        {triggers.map((trigger, i) => (
          <li key={i} className="task-trigger" data-trigger-type={trigger.type}>
            <div className="task-trigger-head">
              <strong>{t(`tasks.triggers.type.${trigger.type}`)}</strong>
              <RemoveButton label={t("tasks.triggers.remove")} onClick={() => setTriggers(removeAt(triggers, i))} />
            </div>
            <TriggerFields value={trigger} onChange={(next) => setTriggers(replaceAt(triggers, i, next))} />
          </li>
        ))}
      </ul>
      {types.length > 0 ? (
        <div className="task-trigger-add">
          <SelectField label={t("tasks.triggers.type")} value={adding} options={types.map((type) => ({ value: type, label: t(`tasks.triggers.type.${type}`) }))} onChange={setAdding} />
          {full ? <span className="muted small">{t("tasks.triggers.full", { max: MAX_TRIGGERS })}</span> : <AddButton label={t("tasks.triggers.add")} onClick={() => setTriggers([...triggers, newTrigger(adding)])} />}
        </div>
      ) : null}
      <input type="hidden" name="triggers" value={JSON.stringify(triggers)} />
    </fieldset>
  );
}

export default defineIsland<TaskTriggersProps>({
  name: "TaskTriggers",
  component: TaskTriggersView,
  messages: ["tasks.triggers.", "common.cancel"],
  // It sits in a closed dialog: hydrate at once, so opening it never shows the textarea give way.
  hydrate: "load",
});
