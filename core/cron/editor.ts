// The schedule editor's pure logic: a cron expression shown as one of four simple
// forms (hourly, daily, weekly, monthly) when it is one of them, and as raw text ("advanced")
// otherwise. Kept apart from the island so the rules are tested without a browser.
import { DEFAULT_TASK_CRON } from "../tasks/constants";
import { expandAlias } from "./aliases";
import { isValidCron } from "./parse";

export const CRON_MODES = ["hourly", "daily", "weekly", "monthly", "advanced"] as const;
export type CronMode = (typeof CRON_MODES)[number];

/** The editor's inputs. Each means one thing in every mode that shows it, so switching tabs never
 *  turns one mode's value into another's (an "every 6 hours" into a 06:00): minute and hour are the
 *  time (hourly uses only the minute), the intervals and the day of the month have fields of their
 *  own; advanced holds the raw expression. */
export interface CronForm {
  mode: CronMode;
  minute: number;
  /** hour of the day (daily, weekly, monthly) */
  hour: number;
  /** hourly: every n hours */
  everyHours: number;
  /** daily: every n days */
  everyDays: number;
  /** monthly: the day of the month */
  dayOfMonth: number;
  /** monthly: every n months */
  everyMonths: number;
  /** weekly: 0 = Sunday … 6 */
  weekdays: number[];
  /**
   * The weekdays are only the Sunday picked because Weekly was chosen with none:
   * the first day the user picks replaces it instead of joining it.
   */
  weekdaysSuggested: boolean;
  advanced: string;
}

export function defaultCronForm(): CronForm {
  return { mode: "daily", minute: 0, hour: 0, everyHours: 1, everyDays: 1, dayOfMonth: 1, everyMonths: 1, weekdays: [], weekdaysSuggested: false, advanced: DEFAULT_TASK_CRON };
}

/** The expression the form stands for, in exactly the shapes cronToForm recognises. */
export function formToCron(form: CronForm): string {
  const { minute, hour } = form;
  switch (form.mode) {
    case "hourly":
      return `${minute} */${form.everyHours} * * ?`;
    case "daily":
      return `${minute} ${hour} */${form.everyDays} * ?`;
    case "weekly":
      return `${minute} ${hour} ? * ${sortedUnique(form.weekdays).join(",")}`;
    case "monthly":
      return `${minute} ${hour} ${form.dayOfMonth} */${form.everyMonths} ?`;
    case "advanced":
      return form.advanced.trim();
  }
}

/**
 * The form that shows `expression`: the first simple mode whose shape it has, else advanced with
 * the text as written. Besides the editor's own output it accepts "*" where the editor writes "?"
 * and "*" for "every 1" (so "@daily" and the default "0 0 *\/1 * *" are daily).
 */
export function cronToForm(expression: string | null | undefined): CronForm {
  const text = expression?.trim() ?? "";
  if (text === "") return defaultCronForm();
  const form = { ...defaultCronForm(), advanced: text };
  const fields = expandAlias(text).split(/\s+/);
  if (fields.length !== 5 || !isValidCron(text)) return { ...form, mode: "advanced" };
  const [minuteText, hourText, domText, monthText, dowText] = fields as [string, string, string, string, string];
  const minute = plainNumber(minuteText);
  const blankDom = domText === "*" || domText === "?";
  const blankDow = dowText === "*" || dowText === "?";

  const candidates: CronForm[] = [];
  if (monthText === "*" && blankDom && blankDow) candidates.push({ ...form, mode: "hourly", minute, everyHours: everyN(hourText) });
  const hour = plainNumber(hourText);
  if (monthText === "*" && blankDow) candidates.push({ ...form, mode: "daily", minute, hour, everyDays: everyN(domText) });
  if (monthText === "*" && blankDom) candidates.push({ ...form, mode: "weekly", minute, hour, weekdays: weekdayList(dowText) });
  if (blankDow) candidates.push({ ...form, mode: "monthly", minute, hour, dayOfMonth: plainNumber(domText), everyMonths: everyN(monthText) });
  // Each candidate's shape was only partly checked above; formIsValid rejects the rest (a NaN where
  // a number or an "*\/n" was needed, an interval the form cannot hold).
  return candidates.find(formIsValid) ?? { ...form, mode: "advanced" };
}

/**
 * The form after the user picks another mode. Every field keeps its value (the time stays the
 * time), except that an interval of 0 or an emptied input becomes 1, and weekly with no day picked
 * starts on Sunday, marked as suggested. Leaving advanced takes the text's own fields when it
 * already has the new mode's shape.
 */
export function switchMode(form: CronForm, mode: CronMode): CronForm {
  if (mode === "advanced") {
    return { ...form, mode, advanced: form.mode === "advanced" ? form.advanced : formToCron(form) };
  }
  let next: CronForm = { ...form, weekdays: [...form.weekdays], mode };
  if (form.mode === "advanced") {
    const parsed = cronToForm(form.advanced);
    if (parsed.mode === mode) next = { ...parsed, advanced: form.advanced };
  }
  next.everyHours = atLeastOne(next.everyHours);
  next.everyDays = atLeastOne(next.everyDays);
  next.everyMonths = atLeastOne(next.everyMonths);
  if (mode === "weekly" && next.weekdays.length === 0) {
    next.weekdays = [0];
    next.weekdaysSuggested = true;
  }
  return next;
}

/** The user pressed a weekday: it is added or removed; while Sunday is only suggested, another day replaces it. */
export function toggleWeekday(form: CronForm, day: number): CronForm {
  const on = form.weekdays.includes(day);
  const weekdays = on ? form.weekdays.filter((d) => d !== day) : form.weekdaysSuggested ? [day] : sortedUnique([...form.weekdays, day]);
  return { ...form, weekdays, weekdaysSuggested: false };
}

export function formIsValid(form: CronForm): boolean {
  if (form.mode === "advanced") return isValidCron(form.advanced);
  const fieldsOk =
    between(form.minute, 0, 59) &&
    (form.mode === "hourly" ? between(form.everyHours, 1, 23) : between(form.hour, 0, 23)) &&
    (form.mode === "daily" ? between(form.everyDays, 1, 31) : true) &&
    (form.mode === "monthly" ? between(form.dayOfMonth, 1, 31) && between(form.everyMonths, 1, 12) : true) &&
    (form.mode === "weekly" ? form.weekdays.length > 0 && form.weekdays.every((d) => between(d, 0, 6)) : true);
  return fieldsOk && isValidCron(formToCron(form));
}

/** "15" → 15; anything else (a list, a range, "*") → NaN, which no form accepts. */
function plainNumber(text: string): number {
  return /^\d{1,2}$/.test(text) ? Number(text) : NaN;
}

/** "*\/n" → n, "*" → 1 (every one); anything else → NaN. */
function everyN(text: string): number {
  if (text === "*") return 1;
  return text.startsWith("*/") ? plainNumber(text.slice(2)) : NaN;
}

/** "1,3,5" → [1, 3, 5]; 7 is Sunday too. Anything but single numbers (names, ranges) → []. */
function weekdayList(text: string): number[] {
  const items = text.split(",");
  if (!items.every((item) => /^[0-7]$/.test(item))) return [];
  return sortedUnique(items.map((item) => Number(item) % 7));
}

function sortedUnique(values: readonly number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

/** 0, negative or NaN (an emptied input) → 1. */
function atLeastOne(value: number): number {
  return value > 0 ? value : 1;
}

function between(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}
