// A task's operations (spec: Server task) inside the Tasks tab's plain New/Edit task form. Without
// script it is a textarea of the operations as JSON, named `operations`, so the form still works;
// once hydrated it becomes the step list editor (the definition editor's, with the task catalogue)
// and a hidden `operations` input that always holds the list as JSON.
import { useEffect, useState } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import type { StepValue } from "./definition/convert";
import { StepList } from "./definition/StepList";
import { TASK_OPERATIONS } from "./definition/step-fields";

export interface TaskStepsProps {
  /** the task's operations as stored (empty for a new task) */
  initial: StepValue[];
}

function TaskStepsView({ initial }: TaskStepsProps) {
  const t = useT();
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
      <StepList label={t("tasks.steps.title")} value={steps} onChange={setSteps} catalogue={TASK_OPERATIONS} />
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
