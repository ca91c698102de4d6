// The New Task / Edit Task form: name, schedule editor, triggers
// editor, cooldown and conditions, step editor, Cancel and Save. A plain form that posts to the
// page routes; the three editors are islands that submit their fields as the script-free form
// would, and the cooldown and conditions are plain fields.
import { usePage } from "../../../context";
import { Alert } from "../../../components/Alert";
import { ConfirmActions } from "../../../components/Modal";
import { Island } from "../../../components/Island";
import { DEFAULT_COOLDOWN_SECONDS, DEFAULT_TASK_CRON, MAX_COOLDOWN_SECONDS, MAX_TASK_NAME, MIN_COOLDOWN_SECONDS, RUN_STATES } from "../../../../core/tasks/constants";
import { cronstrueLocale, describeSchedule } from "../../../../core/cron/describe";
import type { StepValue } from "../../../../islands/definition/convert";
import type { TriggerValue } from "../../../../islands/tasks/TriggerFields";
import TaskSchedule from "../../../../islands/TaskSchedule";
import TaskSteps from "../../../../islands/TaskSteps";
import TaskTriggers from "../../../../islands/TaskTriggers";

/** A task's conditions as the form shows them (core/tasks conditionsSchema). */
export interface TaskConditionsValue {
  state?: string;
  between?: { from: string; to: string };
  variable?: string;
  equals?: string;
}

/** What the form shows: a stored task, or what was submitted when saving it failed. */
export interface TaskFormValues {
  name: string;
  /** null: manual run only */
  cronSchedule: string | null;
  operations: StepValue[];
  triggers: TriggerValue[];
  /** null: the default */
  cooldownSeconds: number | null;
  conditions: TaskConditionsValue;
}

/** A submit that failed, shown again in its dialog: which task (null for a new one), what was typed, and why. */
export interface FailedTaskForm {
  taskId: string | null;
  values: TaskFormValues;
  error: string;
}

export function TaskForm({ action, values, isNew, error, operationTypes, triggerTypes }: { action: string; values: TaskFormValues; isNew: boolean; error?: string; operationTypes: readonly string[]; triggerTypes: readonly string[] }) {
  const { t, locale } = usePage();
  // The schedule the editor opens with (a manual-only task's fields hold the default), in words
  // from here: the browser loads cronstrue only once the schedule is changed.
  const opening = values.cronSchedule?.trim() || DEFAULT_TASK_CRON;
  return (
    <form method="post" action={action} className="stack task-form">
      {error ? <Alert kind="error">{error}</Alert> : null}
      <label className="field">
        <span className="field-label">{t("tasks.name")}</span>
        {/* Not only spaces; the server checks it again after trimming. */}
        <input type="text" name="name" required pattern=".*\S.*" maxLength={MAX_TASK_NAME} defaultValue={values.name} autoComplete="off" dir="auto" />
      </label>
      {/* A new task starts scheduled; shown again after a failed submit, it keeps what was chosen. */}
      <Island island={TaskSchedule} props={{ initial: values.cronSchedule, isNew: isNew && !error, description: describeSchedule(opening, locale), describeLocale: cronstrueLocale(locale) }} />
      <Island island={TaskTriggers} props={{ initial: values.triggers, types: [...triggerTypes] }} />
      <label className="field task-cooldown">
        <span className="field-label">{t("tasks.cooldown")}</span>
        <input type="number" name="cooldownSeconds" min={MIN_COOLDOWN_SECONDS} max={MAX_COOLDOWN_SECONDS} step={1} inputMode="numeric" defaultValue={values.cooldownSeconds ?? DEFAULT_COOLDOWN_SECONDS} />
        <span className="field-hint">{t("tasks.cooldownHint", { min: MIN_COOLDOWN_SECONDS })}</span>
      </label>
      <ConditionFields conditions={values.conditions} />
      <Island island={TaskSteps} props={{ initial: values.operations, types: [...operationTypes] }} />
      <ConfirmActions cancel={t("common.cancel")} confirm={t("common.save")} kind="primary" />
    </form>
  );
}

/** The conditions of automatic runs: plain fields, each left empty for none. */
function ConditionFields({ conditions }: { conditions: TaskConditionsValue }) {
  const { t } = usePage();
  return (
    <fieldset className="task-conditions" data-testid="task-conditions">
      <legend className="field-label">{t("tasks.conditions.title")}</legend>
      <p className="field-hint">{t("tasks.conditions.intro")}</p>
      <div className="task-conditions-row">
        <label className="field">
          <span className="field-label">{t("tasks.conditions.state")}</span>
          <select name="conditionState" defaultValue={conditions.state ?? ""}>
            <option value="">{t("tasks.conditions.state.any")}</option>
            {RUN_STATES.map((state) => (
              <option key={state} value={state}>
                {t(`tasks.conditions.state.${state}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t("tasks.conditions.from")}</span>
          <input type="time" name="conditionFrom" defaultValue={conditions.between?.from ?? ""} />
        </label>
        <label className="field">
          <span className="field-label">{t("tasks.conditions.to")}</span>
          <input type="time" name="conditionTo" defaultValue={conditions.between?.to ?? ""} />
        </label>
      </div>
      <p className="field-hint">{t("tasks.conditions.betweenHint")}</p>
      <div className="task-conditions-row">
        <label className="field">
          <span className="field-label">{t("tasks.conditions.variable")}</span>
          <input type="text" name="conditionVariable" className="task-sched-mono" dir="ltr" spellCheck={false} autoComplete="off" maxLength={100} defaultValue={conditions.variable ?? ""} />
        </label>
        <label className="field">
          <span className="field-label">{t("tasks.conditions.equals")}</span>
          <input type="text" name="conditionEquals" dir="auto" autoComplete="off" maxLength={1000} defaultValue={conditions.equals ?? ""} />
        </label>
      </div>
      <p className="field-hint">{t("tasks.conditions.variableHint")}</p>
    </fieldset>
  );
}
