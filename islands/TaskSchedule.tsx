// A task's schedule (spec sections 2 and 4 "Server tasks", "Cron editor"): a switch that enables
// it, and tabs Hourly, Daily, Weekly, Monthly and Advanced with the fields of each. Without script
// it is a checkbox `scheduled` and a text field `cronSchedule` (an unchecked box saves manual
// only); once hydrated it becomes the editor, which submits the same two names as hidden inputs.
// The cron rules themselves live in core/cron, shared with the panel and the node.
import { useEffect, useRef, useState } from "react";
import { CRON_MODES, cronToForm, formIsValid, formToCron, isValidCron, switchMode, type CronForm } from "../core/cron";
import { DEFAULT_TASK_CRON } from "../core/tasks/constants";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { ScheduleFields } from "./tasks/ScheduleFields";

export interface TaskScheduleProps {
  /** the stored schedule; null or empty for a manual-only task */
  initial: string | null;
  /** a new task starts scheduled with the default; an existing one as it was saved */
  isNew: boolean;
}

interface Editing {
  enabled: boolean;
  form: CronForm;
  /**
   * The expression as it came (stored or typed), kept word for word until a field changes: a
   * task saved without touching its schedule keeps it exactly ("0 0 *\/1 * *" stays that, not the
   * editor's own "0 0 *\/1 * ?").
   */
  untouched: string | null;
}

function TaskScheduleView({ initial, isNew }: TaskScheduleProps) {
  const t = useT();
  const stored = initial?.trim() ?? "";
  // Spec section 4: a manual-only task shows unscheduled, but its fields hold the default.
  const startExpression = stored || DEFAULT_TASK_CRON;
  const startEnabled = isNew || stored !== "";
  const [editing, setEditing] = useState<Editing | null>(null);
  const checkbox = useRef<HTMLInputElement>(null);
  const text = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // Taking over from the plain fields: carry on with whatever was set there before the code came.
    const expression = text.current?.value.trim() || DEFAULT_TASK_CRON;
    setEditing({ enabled: checkbox.current?.checked ?? startEnabled, form: cronToForm(expression), untouched: expression });
  }, []);

  if (!editing) {
    const invalid = startEnabled && !isValidCron(startExpression);
    return (
      <fieldset className="task-sched task-sched-plain">
        <legend className="field-label">{t("tasks.schedule.title")}</legend>
        <label className="check-row">
          <input ref={checkbox} type="checkbox" name="scheduled" defaultChecked={startEnabled} />
          <span>{t("tasks.schedule.enable")}</span>
        </label>
        <label className="field">
          <span className="field-label">{t("tasks.schedule.expression")}</span>
          <input ref={text} type="text" name="cronSchedule" className="task-sched-mono" spellCheck={false} autoComplete="off" defaultValue={startExpression} aria-invalid={invalid ? true : undefined} />
          <span className="field-hint">{t("tasks.schedule.plainHint")}</span>
        </label>
      </fieldset>
    );
  }

  const { enabled, form, untouched } = editing;
  const expression = untouched ?? formToCron(form);
  const valid = untouched !== null ? isValidCron(untouched) : formIsValid(form);
  const change = (next: CronForm) => setEditing({ enabled, form: next, untouched: null });
  return (
    <fieldset className="task-sched" data-testid="task-schedule-editor">
      <legend className="task-sched-legend">
        <span className="field-label">{t("tasks.schedule.title")}</span>
      </legend>
      <button type="button" className="switch-row task-sched-switch" role="switch" aria-checked={enabled} onClick={() => setEditing({ ...editing, enabled: !enabled })}>
        <span className={enabled ? "switch on" : "switch"} aria-hidden="true" />
        <span>{t(enabled ? "tasks.schedule.enabled" : "tasks.schedule.manualOnly")}</span>
      </button>
      {/* Unscheduled is saved as a null schedule: the server reads "scheduled" first. */}
      <input type="hidden" name="scheduled" value={enabled ? "on" : ""} />
      <input type="hidden" name="cronSchedule" value={enabled ? expression : ""} />
      {/* Switched off, the fields stay visible (holding the default) but out of the way and out of validation. */}
      <fieldset className="task-sched-body" disabled={!enabled}>
        <div className="task-sched-tabs" role="tablist" aria-label={t("tasks.schedule.title")}>
          {CRON_MODES.map((mode) => (
            <button key={mode} type="button" role="tab" aria-selected={mode === form.mode} data-mode={mode} onClick={() => mode !== form.mode && change(switchMode(form, mode))}>
              {t(`tasks.schedule.mode.${mode}`)}
            </button>
          ))}
        </div>
        <div className="task-sched-fields" role="tabpanel">
          <ScheduleFields form={form} onChange={change} valid={valid} />
        </div>
        <p className="task-sched-result">
          {valid ? (
            <>
              <span className="field-label">{t("tasks.schedule.expression")}</span> <code data-testid="task-cron">{expression}</code>
            </>
          ) : (
            <span className="task-sched-error" role="alert">{t("errors.ErrTaskScheduleInvalid")}</span>
          )}
        </p>
      </fieldset>
    </fieldset>
  );
}

export default defineIsland<TaskScheduleProps>({
  name: "TaskSchedule",
  component: TaskScheduleView,
  messages: ["tasks.schedule.", "errors.ErrTaskScheduleInvalid"],
  // It sits in a closed dialog: hydrate when the browser is idle, well before anyone opens it.
  hydrate: "idle",
});
