// A task's operations inside the Tasks tab's plain New/Edit task form. Without
// script it is a textarea of the operations as JSON, named `operations`, so the form still works;
// once hydrated it becomes the step list editor (the definition editor's, with the task catalogue)
// and a hidden `operations` input that always holds the list as JSON. It offers only the operations
// the user may use (the server says which), and a new step starts as a console command.
import { useEffect, useMemo, useState } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import type { StepValue } from "./definition/convert";
import { StepList } from "./definition/StepList";
import { TASK_OPERATIONS, type StepCatalogue } from "./definition/step-fields";

export interface TaskStepsProps {
  /** the task's operations as stored (empty for a new task) */
  initial: StepValue[];
  /** the operation types this user may put in a task (server/services/tasks usableOperations) */
  types: string[];
}

/** A step a task most often has, and one that needs only the console permission. */
const PREFERRED_NEW_STEP = "console";

/** The task catalogue cut down to `types`, each once; a new step is a console command when that is among them, else the first. */
export function catalogueFor(types: readonly string[]): StepCatalogue {
  // Once each: v3's install steps repeat the task-only console and sleep, which the task's own fields replace.
  const offered = [...new Set(TASK_OPERATIONS.types)].filter((type) => types.includes(type));
  const defaultType = offered.includes(PREFERRED_NEW_STEP) ? PREFERRED_NEW_STEP : (offered[0] ?? PREFERRED_NEW_STEP);
  return { ...TASK_OPERATIONS, types: offered, defaultType };
}

function TaskStepsView({ initial, types }: TaskStepsProps) {
  const t = useT();
  const catalogue = useMemo(() => catalogueFor(types), [types]);
  const [steps, setSteps] = useState<StepValue[]>(initial);
  // False on the server and in the first browser render, which must match it: the textarea.
  const [enhanced, setEnhanced] = useState(false);
  // Nothing typed in the textarea is carried over: hydrating resets it to its default text anyway,
  // and it hydrates at load, before its closed dialog is likely to have been opened.
  useEffect(() => setEnhanced(true), []);

  if (!enhanced) {
    return (
      <label className="field task-steps">
        <span className="field-label">{t("tasks.steps.title")}</span>
        <textarea name="operations" className="defedit-mono" rows={8} spellCheck={false} defaultValue={JSON.stringify(initial, null, 2)} />
        <span className="field-hint">{t("tasks.steps.jsonHint")}</span>
      </label>
    );
  }

  return (
    <div className="stack task-steps">
      <span className="field-label">{t("tasks.steps.title")}</span>
      <StepList label={t("tasks.steps.title")} value={steps} onChange={setSteps} catalogue={catalogue} />
      <input type="hidden" name="operations" value={JSON.stringify(steps)} />
    </div>
  );
}

export default defineIsland<TaskStepsProps>({
  name: "TaskSteps",
  component: TaskStepsView,
  // What StepList, StepForm, StringList and SubDialog show, and the island's own label.
  messages: [
    "tasks.steps.",
    "definition.step.",
    "definition.stepType.",
    "definition.stepField.",
    "definition.stepValue.",
    "definition.list.",
    "definition.moveUp",
    "definition.moveDown",
    "definition.edit",
    "definition.remove",
    "definition.apply",
    "common.cancel",
  ],
  // It sits in a closed dialog: hydrate at once, so opening it never shows the textarea give way.
  hydrate: "load",
});
