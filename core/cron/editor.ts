// The schedule editor's pure logic (spec section 4): a cron expression shown as one of four simple
// forms (hourly, daily, weekly, monthly) when it is one of them, and as raw text ("advanced")
// otherwise. Kept apart from the island so the rules are tested without a browser.
import { DEFAULT_TASK_CRON } from "../tasks/constants";
import { expandAlias } from "./aliases";
import { isValidCron } from "./parse";

export const CRON_MODES = ["hourly", "daily", "weekly", "monthly", "advanced"] as const;
export type CronMode = (typeof CRON_MODES)[number];

/** Shared fields, as the editor's inputs hold them. Their meaning depends on the mode:
 *  hourly: minute, hour = every n hours; daily: minute, hour (time of day), day = every n days;
 *  weekly: minute, hour, weekdays (0 = Sunday); monthly: minute, hour, day (day of month), month = every n months;
 *  advanced: the raw expression in `advanced`. */
export interface CronForm {
  mode: CronMode;
  minute: number;
  hour: number;
  day: number;
  month: number;
  weekdays: number[];
  advanced: string;
}

export function defaultCronForm(): CronForm {
  return { mode: "daily", minute: 0, hour: 0, day: 1, month: 1, weekdays: [], advanced: DEFAULT_TASK_CRON };
}

/** The expression the form stands for, in exactly the shapes cronToForm recognises. */
export function formToCron(form: CronForm): string {
  const { minute, hour, day, month } = form;
  switch (form.mode) {
    case "hourly":
      return `${minute} */${hour} * * ?`;
    case "daily":
      return `${minute} ${hour} */${day} * ?`;
    case "weekly":
      return `${minute} ${hour} ? * ${sortedUnique(form.weekdays).join(",")}`;
    case "monthly":
      return `${minute} ${hour} ${day} */${month} ?`;
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
  const hours = everyN(hourText);
  if (monthText === "*" && blankDom && blankDow) candidates.push({ ...form, mode: "hourly", minute, hour: hours });
  const hour = plainNumber(hourText);
  const days = everyN(domText);
  if (monthText === "*" && blankDow) candidates.push({ ...form, mode: "daily", minute, hour, day: days });
  const weekdays = weekdayList(dowText);
  if (monthText === "*" && blankDom) candidates.push({ ...form, mode: "weekly", minute, hour, weekdays });
  const months = everyN(monthText);
  if (blankDow) candidates.push({ ...form, mode: "monthly", minute, hour, day: plainNumber(domText), month: months });
  // Each candidate's shape was only partly checked above; formIsValid rejects the rest (a NaN where
  // a number or an "*\/n" was needed, an interval the form cannot hold).
  return candidates.find(formIsValid) ?? { ...form, mode: "advanced" };
}

/**
 * The form after the user picks another mode. Values carry over, except that an interval of 0
 * (or an empty input) becomes 1, and weekly starts on Sunday when no day is picked. Leaving
 * advanced takes the text's own fields when it already has the new mode's shape.
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
  if (mode === "hourly") next.hour = atLeastOne(next.hour);
  if (mode === "daily") next.day = atLeastOne(next.day);
  if (mode === "monthly") next.month = atLeastOne(next.month);
  if (mode === "weekly" && next.weekdays.length === 0) next.weekdays = [0];
  return next;
}

export function formIsValid(form: CronForm): boolean {
  if (form.mode === "advanced") return isValidCron(form.advanced);
  const { minute, hour, day, month } = form;
  const fieldsOk =
    between(minute, 0, 59) &&
    (form.mode === "hourly" ? between(hour, 1, 23) : between(hour, 0, 23)) &&
    (form.mode === "daily" || form.mode === "monthly" ? between(day, 1, 31) : true) &&
    (form.mode === "monthly" ? between(month, 1, 12) : true) &&
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
