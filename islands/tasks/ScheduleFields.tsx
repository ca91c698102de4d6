// The fields of one schedule mode: hourly minute and every
// n hours; daily time and every n days; weekly time and weekdays; monthly time, day of month and
// every n months; advanced the raw expression. Controlled by TaskSchedule, which owns the form;
// each field edits its own value of the form (core/cron CronForm), so switching tabs keeps them.
import { useEffect, useId, useRef } from "react";
import { toggleWeekday, type CronForm } from "../../core/cron";
import { useT } from "../lib/i18n";

/** Sunday first, as cron counts them (0 = Sunday). */
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;

export interface ScheduleFieldsProps {
  form: CronForm;
  onChange: (form: CronForm) => void;
  /** whether the whole expression is valid; the advanced field shows it */
  valid: boolean;
}

export function ScheduleFields({ form, onChange, valid }: ScheduleFieldsProps) {
  const t = useT();
  const set = (patch: Partial<CronForm>) => onChange({ ...form, ...patch });
  const time = <TimeFields form={form} onChange={set} />;
  switch (form.mode) {
    case "hourly":
      return (
        <div className="task-sched-row">
          <label className="field">
            <span className="field-label">{t("tasks.schedule.minute")}</span>
            <ClockSelect value={form.minute} count={60} onChange={(minute) => set({ minute })} />
          </label>
          <NumberField label={t("tasks.schedule.everyHours")} value={form.everyHours} min={1} max={23} onChange={(everyHours) => set({ everyHours })} />
        </div>
      );
    case "daily":
      return (
        <div className="task-sched-row">
          {time}
          <NumberField label={t("tasks.schedule.everyDays")} value={form.everyDays} min={1} max={31} onChange={(everyDays) => set({ everyDays })} />
        </div>
      );
    case "weekly":
      return (
        <div className="task-sched-row">
          {time}
          <WeekdayField form={form} onChange={onChange} />
        </div>
      );
    case "monthly":
      return (
        <div className="task-sched-row">
          {time}
          <NumberField label={t("tasks.schedule.dayOfMonth")} value={form.dayOfMonth} min={1} max={31} onChange={(dayOfMonth) => set({ dayOfMonth })} />
          <NumberField label={t("tasks.schedule.everyMonths")} value={form.everyMonths} min={1} max={12} onChange={(everyMonths) => set({ everyMonths })} />
        </div>
      );
    case "advanced":
      return <AdvancedField value={form.advanced} valid={valid} onChange={(advanced) => set({ advanced })} />;
  }
}

/**
 * One toggle per weekday; none picked is invalid (the form says so). A Sunday the editor picked
 * itself (Weekly chosen with no day) is shown as a suggestion, and the first day pressed replaces it.
 */
function WeekdayField({ form, onChange }: { form: CronForm; onChange: (form: CronForm) => void }) {
  const t = useT();
  const labelId = useId();
  const hintId = useId();
  return (
    <div className="field">
      <span className="field-label" id={labelId}>{t("tasks.schedule.weekdays")}</span>
      <div className="task-sched-days" role="group" aria-labelledby={labelId} aria-describedby={form.weekdaysSuggested ? hintId : undefined}>
        {WEEKDAYS.map((day) => (
          <button
            key={day}
            type="button"
            aria-pressed={form.weekdays.includes(day)}
            data-weekday={day}
            data-suggested={form.weekdaysSuggested && form.weekdays.includes(day) ? "" : undefined}
            title={t(`tasks.schedule.day.${day}`)}
            onClick={() => onChange(toggleWeekday(form, day))}
          >
            {t(`tasks.schedule.dayShort.${day}`)}
          </button>
        ))}
      </div>
      {form.weekdaysSuggested ? <span className="field-hint" id={hintId}>{t("tasks.schedule.weekdaysSuggested")}</span> : null}
    </div>
  );
}

/** Hour and minute, 24-hour, as two lists of 00… (a time input would show AM/PM in some locales). */
function TimeFields({ form, onChange }: { form: CronForm; onChange: (patch: Partial<CronForm>) => void }) {
  const t = useT();
  return (
    <div className="field">
      <span className="field-label">{t("tasks.schedule.time")}</span>
      <span className="task-sched-time">
        <ClockSelect label={t("tasks.schedule.hour")} value={form.hour} count={24} onChange={(hour) => onChange({ hour })} />
        <span aria-hidden="true">:</span>
        <ClockSelect label={t("tasks.schedule.minute")} value={form.minute} count={60} onChange={(minute) => onChange({ minute })} />
      </span>
    </div>
  );
}

/**
 * An hour (count 24) or a minute (count 60), shown as 00, 01 … A value outside that range (a form
 * built from an expression it cannot show) shows as "--" and is marked invalid until one is picked.
 */
function ClockSelect({ label, value, count, onChange }: { label?: string; value: number; count: number; onChange: (value: number) => void }) {
  const inRange = Number.isInteger(value) && value >= 0 && value < count;
  return (
    <select className="task-sched-clock" aria-label={label} value={inRange ? value : ""} aria-invalid={inRange ? undefined : true} onChange={(e) => onChange(Number(e.target.value))}>
      {inRange ? null : <option value="">--</option>}
      {Array.from({ length: count }, (_, n) => (
        <option key={n} value={n}>
          {String(n).padStart(2, "0")}
        </option>
      ))}
    </select>
  );
}

function NumberField({ label, ...input }: NumberInputProps) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <NumberInput label={label} {...input} labelled />
    </label>
  );
}

interface NumberInputProps {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (value: number) => void;
  /** already inside its <label> */
  labelled?: boolean;
}

/**
 * A whole number in [min, max]; an emptied input is NaN, which the form rejects. The same bounds
 * as formIsValid's go on the input, so the browser also refuses to submit a value outside them.
 */
function NumberInput({ label, value, min, max, onChange, labelled }: NumberInputProps) {
  const inRange = Number.isInteger(value) && value >= min && value <= max;
  return (
    <input
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      step={1}
      value={Number.isNaN(value) ? "" : value}
      aria-label={labelled ? undefined : label}
      aria-invalid={inRange ? undefined : true}
      onChange={(e) => onChange(e.target.value === "" ? NaN : Number(e.target.value))}
    />
  );
}

/** The raw expression; while it is invalid, the browser will not submit it (the server would refuse it anyway). */
function AdvancedField({ value, valid, onChange }: { value: string; valid: boolean; onChange: (value: string) => void }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.setCustomValidity(valid ? "" : t("errors.ErrTaskScheduleInvalid")), [valid, t]);
  return (
    <label className="field">
      <span className="field-label">{t("tasks.schedule.expression")}</span>
      <input ref={input} type="text" className="task-sched-mono" spellCheck={false} autoComplete="off" value={value} aria-invalid={valid ? undefined : true} onChange={(e) => onChange(e.target.value)} />
      <span className="field-hint">{t("tasks.schedule.expressionHint")}</span>
    </label>
  );
}
