// When a schedule fires next, in the LOCAL time zone of the process: the node runs tasks on its
// own clock, like crond does. Walks field by field (month, day, hour, minute), jumping to the next
// allowed value, so even a schedule that never fires costs a few hundred steps, not millions.
import { dayMatches, parseCron, type CronSchedule } from "./parse";

/**
 * The first whole minute strictly after `after` that `schedule` matches, or null when there is
 * none within `limitYears` years (for example "0 0 30 2 *").
 */
export function nextRun(schedule: CronSchedule | string, after: Date, limitYears = 5): Date | null {
  const s = typeof schedule === "string" ? parseCron(schedule) : schedule;
  if (Number.isNaN(after.getTime())) return null;
  const lastYear = after.getFullYear() + limitYears;
  // Wall-clock fields of the candidate; month is 1-12 like the schedule's. Overflows (minute 60,
  // hour 24, day past the month's end, month 13) are carried by the checks below.
  let year = after.getFullYear();
  let month = after.getMonth() + 1;
  let day = after.getDate();
  let hour = after.getHours();
  let minute = after.getMinutes() + 1;

  while (year <= lastYear) {
    const nextMonth = firstAtLeast(s.months, month);
    if (nextMonth === undefined) {
      [year, month, day, hour, minute] = [year + 1, 1, 1, 0, 0];
      continue;
    }
    if (nextMonth !== month) [month, day, hour, minute] = [nextMonth, 1, 0, 0];

    if (day > daysInMonth(year, month)) {
      [month, day, hour, minute] = [month + 1, 1, 0, 0];
      continue;
    }
    if (!dayMatches(s, day, weekdayOf(year, month, day))) {
      [day, hour, minute] = [day + 1, 0, 0];
      continue;
    }

    const nextHour = firstAtLeast(s.hours, hour);
    if (nextHour === undefined) {
      [day, hour, minute] = [day + 1, 0, 0];
      continue;
    }
    if (nextHour !== hour) [hour, minute] = [nextHour, 0];

    const nextMinute = firstAtLeast(s.minutes, minute);
    if (nextMinute === undefined) {
      [hour, minute] = [hour + 1, 0];
      continue;
    }
    minute = nextMinute;

    const candidate = new Date(year, month - 1, day, hour, minute);
    // Spring forward: a wall time inside the skipped hour does not exist, and the constructor
    // moves it to another hour; it is not a match, so that day's run is skipped (as in cron).
    const exists = candidate.getHours() === hour && candidate.getMinutes() === minute;
    // Fall back: the repeated hour's wall times resolve to their first occurrence, which can lie
    // at or before `after`; requiring "later than after" keeps a run from firing twice.
    if (exists && candidate.getTime() > after.getTime()) return candidate;
    minute += 1;
  }
  return null;
}

function firstAtLeast(sorted: readonly number[], value: number): number | undefined {
  return sorted.find((v) => v >= value);
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one; UTC so no zone can shift it.
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** 0 = Sunday. A calendar date's weekday does not depend on the zone, so UTC avoids DST quirks. */
function weekdayOf(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}
