// The New Task / Edit Task form (spec section 2 "Server tasks"): name, schedule editor, step editor,
// Cancel and Save. A plain form that posts to the page routes; the two editors are islands that
// submit their fields as the script-free form would.
import { usePage } from "../../../context";
import { Alert } from "../../../components/Alert";
import { ConfirmActions } from "../../../components/Modal";
import { Island } from "../../../components/Island";
import { DEFAULT_TASK_CRON, MAX_TASK_NAME } from "../../../../core/tasks/constants";
import { cronstrueLocale, describeSchedule } from "../../../../core/cron/describe";
import type { StepValue } from "../../../../islands/definition/convert";
import TaskSchedule from "../../../../islands/TaskSchedule";
import TaskSteps from "../../../../islands/TaskSteps";

/** What the form shows: a stored task, or what was submitted when saving it failed. */
export interface TaskFormValues {
  name: string;
  /** null: manual run only */
  cronSchedule: string | null;
  operations: StepValue[];
}

/** A submit that failed, shown again in its dialog: which task (null for a new one), what was typed, and why. */
export interface FailedTaskForm {
  taskId: string | null;
  values: TaskFormValues;
  error: string;
}

export function TaskForm({ action, values, isNew, error, operationTypes }: { action: string; values: TaskFormValues; isNew: boolean; error?: string; operationTypes: readonly string[] }) {
  const { t, locale } = usePage();
  // The schedule the editor opens with (a manual-only task's fields hold the default), in words
  // from here: the browser loads cronstrue only once the schedule is changed.
  const opening = values.cronSchedule?.trim() || DEFAULT_TASK_CRON;
  return (
    <form method="post" action={action} className="stack task-form">
      {error ? <Alert kind="error">{error}</Alert> : null}
      <label className="field">
        <span className="field-label">{t("tasks.name")}</span>
        {/* Not only spaces (spec section 5); the server checks it again after trimming. */}
        <input type="text" name="name" required pattern=".*\S.*" maxLength={MAX_TASK_NAME} defaultValue={values.name} autoComplete="off" dir="auto" />
      </label>
      {/* A new task starts scheduled; shown again after a failed submit, it keeps what was chosen. */}
      <Island island={TaskSchedule} props={{ initial: values.cronSchedule, isNew: isNew && !error, description: describeSchedule(opening, locale), describeLocale: cronstrueLocale(locale) }} />
      <Island island={TaskSteps} props={{ initial: values.operations, types: [...operationTypes] }} />
      <ConfirmActions cancel={t("common.cancel")} confirm={t("common.save")} kind="primary" />
    </form>
  );
}
