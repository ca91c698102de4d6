// A task's schedule: a switch that enables
// it, and tabs Hourly, Daily, Weekly, Monthly and Advanced with the fields of each. Without script
// it is a checkbox `scheduled` and a text field `cronSchedule` (an unchecked box saves manual
// only); once hydrated it becomes the editor, which submits the same two names as hidden inputs.
// Below the fields, the schedule in words ("At 06:30, only on Monday"), live: the server describes
// the schedule the dialog opens with, and cronstrue (one language) loads once it is changed.
// The cron rules themselves live in core/cron, shared with the panel and the node.
import { useEffect, useRef, useState } from "react";
import { CRON_MODES, cronToForm, formIsValid, formToCron, isValidCron, switchMode, type CronForm } from "../core/cron";
import { DEFAULT_TASK_CRON } from "../core/tasks/constants";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { ScheduleFields } from "./tasks/ScheduleFields";
import type { Describe } from "./tasks/describe-cron";

export interface TaskScheduleProps {
  /** the stored schedule; null or empty for a manual-only task */
  initial: string | null;
  /** a new task starts scheduled with the default; an existing one as it was saved */
  isNew: boolean;
  /** the schedule the editor opens with (stored, or the default), in words; null if cronstrue could not read it */
  description: string | null;
  /** cronstrue's name for the page's language, for what the user changes it to */
  describeLocale: string;
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

function TaskScheduleView({ initial, isNew, description, describeLocale }: TaskScheduleProps) {
  const t = useT();
  const stored = initial?.trim() ?? "";
  // A manual-only task shows unscheduled, but its fields hold the default.
  const startExpression = stored || DEFAULT_TASK_CRON;
  const startEnabled = isNew || stored !== "";
  const [editing, setEditing] = useState<Editing | null>(null);
  const checkbox = useRef<HTMLInputElement>(null);
  const text = useRef<HTMLInputElement>(null);
  const [describe, setDescribe] = useState<Describe | null>(null);
  // What the preview must put in words: the valid schedule shown, when it is switched on.
  const shown = editing && editing.enabled ? (editing.untouched ?? (formIsValid(editing.form) ? formToCron(editing.form) : null)) : null;
  const needsDescriber = shown !== null && shown !== startExpression && describe === null;
  useEffect(() => {
    if (!needsDescriber) return;
    let live = true;
    // A failed load leaves the preview empty; the expression is still shown beside it.
    import("./tasks/describe-cron")
      .then(({ loadDescriber }) => loadDescriber(describeLocale))
      .then((d) => live && setDescribe(() => d), () => {});
    return () => void (live = false);
  }, [needsDescriber, describeLocale]);

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
          {description ? <span className="field-hint task-sched-words">{description}</span> : null}
        </label>
      </fieldset>
    );
  }

  const { enabled, form, untouched } = editing;
  const expression = untouched ?? formToCron(form);
  const valid = untouched !== null ? isValidCron(untouched) : formIsValid(form);
  const change = (next: CronForm) => setEditing({ enabled, form: next, untouched: null });
  const words = !valid ? null : describe ? describe(expression) : expression === startExpression ? description : null;
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
        {/* The schedule in words; the expression beside it, except in Advanced, whose field is the expression. */}
        <p className="task-sched-result" aria-live="polite">
          {valid ? (
            <>
              {words ? <span className="task-sched-words" data-testid="task-words">{words}</span> : null}
              {form.mode !== "advanced" ? <code data-testid="task-cron" title={t("tasks.schedule.expression")}>{expression}</code> : null}
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
