// The one cron parser the panel (validating a task), the browser (the schedule editor) and the
// node daemon (firing tasks) share, so that all three agree on what a schedule means.
// Five fields, Vixie cron syntax, plus the Quartz-style "?" the editor writes in a day field.
import { KilnError } from "../errors/kiln-error";
import { expandAlias } from "./aliases";

/** What a schedule allows, each list sorted ascending and free of duplicates. */
export interface CronSchedule {
  readonly minutes: readonly number[];     // 0-59
  readonly hours: readonly number[];       // 0-23
  readonly daysOfMonth: readonly number[]; // 1-31
  readonly months: readonly number[];      // 1-12
  readonly weekdays: readonly number[];    // 0-6, 0 = Sunday
  /** The field neither began with "*" nor was "?"; see dayMatches for why that matters. */
  readonly dayOfMonthRestricted: boolean;
  readonly dayOfWeekRestricted: boolean;
}

interface FieldSpec {
  min: number;
  max: number;
  /** Names standing for numbers, index + min being the value (JAN = 1, SUN = 0). */
  names?: readonly string[];
  /** "?" (no specific value) is only meaningful where the other day field can carry the choice. */
  blankAllowed?: boolean;
}

const MINUTE: FieldSpec = { min: 0, max: 59 };
const HOUR: FieldSpec = { min: 0, max: 23 };
const DAY_OF_MONTH: FieldSpec = { min: 1, max: 31, blankAllowed: true };
const MONTH: FieldSpec = {
  min: 1, max: 12,
  names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"],
};
// 7 is accepted as a second Sunday (Vixie does the same) and folded to 0 after expansion.
const DAY_OF_WEEK: FieldSpec = {
  min: 0, max: 7, blankAllowed: true,
  names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"],
};

/** Parses a five-field expression or an alias; throws ErrTaskScheduleInvalid for anything else. */
export function parseCron(expression: string): CronSchedule {
  const fail = () => new KilnError("ErrTaskScheduleInvalid", { schedule: String(expression) });
  if (typeof expression !== "string") throw fail();
  const fields = expandAlias(expression).split(/\s+/);
  if (fields.length !== 5) throw fail();
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string];
  const values = [
    parseField(minute, MINUTE),
    parseField(hour, HOUR),
    parseField(dayOfMonth, DAY_OF_MONTH),
    parseField(month, MONTH),
    parseField(dayOfWeek, DAY_OF_WEEK),
  ];
  if (values.some((v) => v === null)) throw fail();
  const [minutes, hours, daysOfMonth, months, rawWeekdays] = values as number[][];
  const weekdays = sortedUnique(rawWeekdays!.map((d) => d % 7));
  return {
    minutes: minutes!, hours: hours!, daysOfMonth: daysOfMonth!, months: months!, weekdays,
    dayOfMonthRestricted: !isStar(dayOfMonth),
    dayOfWeekRestricted: !isStar(dayOfWeek),
  };
}

export function isValidCron(expression: string): boolean {
  try {
    parseCron(expression);
    return true;
  } catch {
    return false;
  }
}

/**
 * Vixie cron's DOM_STAR/DOW_STAR rule: a day field whose text begins with "*" (so "*" and "*\/2"
 * alike) counts as unrestricted, and so does "?". Only when both day fields are restricted does a
 * day match if EITHER does ("0 0 1,15 * MON" = the 1st, the 15th and every Monday); otherwise
 * both must match, the unrestricted one trivially ("0 0 *\/2 * MON" = odd-dated Mondays).
 */
function isStar(field: string): boolean {
  return field.startsWith("*") || field === "?";
}

export function dayMatches(schedule: CronSchedule, dayOfMonth: number, weekday: number): boolean {
  const domOk = schedule.daysOfMonth.includes(dayOfMonth);
  const dowOk = schedule.weekdays.includes(weekday);
  if (schedule.dayOfMonthRestricted && schedule.dayOfWeekRestricted) return domOk || dowOk;
  return domOk && dowOk;
}

/** All values a field allows, or null when it is not valid for `spec`. */
function parseField(text: string, spec: FieldSpec): number[] | null {
  if (text === "?") return spec.blankAllowed ? range(spec.min, spec.max, 1) : null;
  const out: number[] = [];
  for (const item of text.split(",")) {
    const values = parseItem(item, spec);
    if (!values) return null;
    out.push(...values);
  }
  return sortedUnique(out);
}

/** One list item: "*", "n", "a-b", each optionally followed by "/step" ("n/step" runs to the max). */
function parseItem(item: string, spec: FieldSpec): number[] | null {
  const [base = "", step, extra] = item.split("/");
  if (extra !== undefined) return null;
  let by = 1;
  if (step !== undefined) {
    by = parseNumber(step);
    // A step past the field's whole span could only ever pick the first value: surely a typo.
    if (!(by >= 1 && by <= spec.max - spec.min + 1)) return null;
  }
  if (base === "*") return range(spec.min, spec.max, by);
  const [from, to, more] = base.split("-");
  if (more !== undefined) return null;
  const start = parseValue(from ?? "", spec);
  if (start === null) return null;
  if (to === undefined) return step === undefined ? [start] : range(start, spec.max, by);
  const end = parseValue(to, spec);
  if (end === null || end < start) return null;
  return range(start, end, by);
}

function parseValue(text: string, spec: FieldSpec): number | null {
  const index = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  const value = index >= 0 ? index + spec.min : parseNumber(text);
  return value >= spec.min && value <= spec.max ? value : null;
}

/** Plain decimal digits only: Number() would also take "", " 1", "0x1f" and "1e1". */
function parseNumber(text: string): number {
  return /^\d{1,4}$/.test(text) ? Number(text) : NaN;
}

function range(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  for (let v = from; v <= to; v += step) out.push(v);
  return out;
}

function sortedUnique(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}
