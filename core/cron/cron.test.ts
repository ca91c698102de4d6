import { describe, expect, test } from "bun:test";
import { KilnError } from "../errors";
import { DEFAULT_TASK_CRON } from "../tasks/constants";
import { expandAlias, isValidCron, nextRun, parseCron } from ".";

/** A local wall time, month 1-12; built like nextRun builds candidates, so any zone gives the same answers. */
function at(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date {
  return new Date(year, month - 1, day, hour, minute, second);
}

// 2026-01-01 is a Thursday; 2026-01-05 a Monday.
const NEXT_RUNS: [string, string, Date, Date | null][] = [
  ["hourly form", "15 */2 * * ?", at(2026, 1, 1, 0, 20), at(2026, 1, 1, 2, 15)],
  ["hourly form past midnight", "15 */2 * * ?", at(2026, 1, 1, 23, 30), at(2026, 1, 2, 0, 15)],
  ["daily form", "30 6 */1 * ?", at(2026, 1, 1, 7), at(2026, 1, 2, 6, 30)],
  ["daily form every 2 days rolls into the next month", "0 0 */2 * ?", at(2026, 1, 31), at(2026, 2, 1)],
  ["weekly form", "0 9 ? * 1,3,5", at(2026, 1, 1, 10), at(2026, 1, 2, 9)],
  ["weekly form over the weekend", "0 9 ? * 1,3,5", at(2026, 1, 2, 9), at(2026, 1, 5, 9)],
  ["monthly form every 3 months", "0 12 15 */3 ?", at(2026, 1, 20), at(2026, 4, 15, 12)],
  ["default task cron", DEFAULT_TASK_CRON, at(2026, 1, 1, 12), at(2026, 1, 2)],
  ["@hourly, seconds ignored", "@hourly", at(2026, 1, 1, 10, 59, 30), at(2026, 1, 1, 11)],
  ["@daily", "@daily", at(2026, 1, 1), at(2026, 1, 2)],
  ["@MIDNIGHT", "@MIDNIGHT", at(2026, 1, 1, 5), at(2026, 1, 2)],
  ["@weekly is Sunday", "@weekly", at(2026, 1, 1), at(2026, 1, 4)],
  ["@monthly", "@monthly", at(2026, 1, 1), at(2026, 2, 1)],
  ["@yearly", "@yearly", at(2026, 1, 1), at(2027, 1, 1)],
  ["@annually", "@annually", at(2026, 6, 1), at(2027, 1, 1)],
  ["? as day of month", "0 0 ? * *", at(2026, 1, 1, 1), at(2026, 1, 2)],
  ["every minute", "* * * * *", at(2026, 1, 1, 10, 0), at(2026, 1, 1, 10, 1)],
  ["lists", "0,30 8,20 * * *", at(2026, 1, 1, 8, 30), at(2026, 1, 1, 20)],
  ["ranges with weekday names", "0 9-17 * * MON-FRI", at(2026, 1, 2, 17), at(2026, 1, 5, 9)],
  ["range with a step", "10-50/20 * * * *", at(2026, 1, 1, 10, 50), at(2026, 1, 1, 11, 10)],
  ["start with a step runs to the max", "5/15 * * * *", at(2026, 1, 1, 10, 50), at(2026, 1, 1, 11, 5)],
  ["month names, any case", "0 0 1 jan,JUL *", at(2026, 2, 1), at(2026, 7, 1)],
  ["weekday 7 is Sunday", "0 0 * * 7", at(2026, 1, 1), at(2026, 1, 4)],
  ["range ending in 7", "0 0 * * 5-7", at(2026, 1, 3), at(2026, 1, 4)],
  ["restricted DOM and DOW: either (a Friday)", "0 0 13 * 5", at(2026, 1, 1), at(2026, 1, 2)],
  ["restricted DOM and DOW: either (the 13th)", "0 0 13 * 5", at(2026, 1, 9), at(2026, 1, 13)],
  ["*/n DOM with a DOW: both (odd-dated Monday)", "0 0 */2 * 1", at(2026, 1, 1), at(2026, 1, 5)],
  ["*/n DOM with a DOW skips even-dated Mondays", "0 0 */2 * 1", at(2026, 1, 5), at(2026, 1, 19)],
  ["* DOM with a DOW", "0 0 * * 1", at(2026, 1, 5), at(2026, 1, 12)],
  ["year roll-over", "59 23 31 12 *", at(2026, 12, 31, 23, 59), at(2027, 12, 31, 23, 59)],
  ["month roll-over skips short months", "0 0 31 * *", at(2026, 1, 31), at(2026, 3, 31)],
  ["leap day", "0 0 29 2 *", at(2026, 1, 1), at(2028, 2, 29)],
  ["impossible date", "0 0 30 2 *", at(2026, 1, 1), null],
  ["impossible dates in a list", "0 0 31 4,6,9,11 *", at(2026, 1, 1), null],
];

describe("nextRun", () => {
  for (const [name, expression, from, expected] of NEXT_RUNS) {
    test(`${name}: ${expression}`, () => {
      expect(nextRun(expression, from)).toEqual(expected);
    });
  }

  test("takes a parsed schedule too, and gives up after limitYears", () => {
    const leap = parseCron("0 0 29 2 *");
    expect(nextRun(leap, at(2026, 1, 1), 1)).toBeNull();
    expect(nextRun(leap, at(2026, 1, 1), 2)).toEqual(at(2028, 2, 29));
  });

  test("an impossible schedule is answered quickly", () => {
    const started = performance.now();
    expect(nextRun("0 0 30 2 *", at(2026, 1, 1), 100)).toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
  });

  test("an invalid expression throws the task schedule error", () => {
    expect(() => nextRun("nope", at(2026, 1, 1))).toThrow(KilnError);
  });
});

/** Runs `fn` with the process in another zone; Bun re-reads TZ on change. */
function inZone(zone: string, fn: () => void): void {
  const saved = process.env.TZ;
  process.env.TZ = zone;
  try {
    fn();
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
}

describe("nextRun across daylight saving time (Europe/Berlin)", () => {
  test("the zone change takes effect (else these tests would prove nothing)", () => {
    inZone("Europe/Berlin", () => {
      expect(at(2026, 1, 1).getTimezoneOffset()).toBe(-60);
      expect(at(2026, 7, 1).getTimezoneOffset()).toBe(-120);
    });
  });

  test("spring forward: a time in the skipped hour does not fire that day", () => {
    inZone("Europe/Berlin", () => {
      expect(nextRun("30 2 * * *", at(2026, 3, 28, 3))).toEqual(at(2026, 3, 30, 2, 30));
      // Hours on either side of the gap are unaffected.
      expect(nextRun("0 * * * *", at(2026, 3, 29, 1, 30))).toEqual(at(2026, 3, 29, 3));
    });
  });

  test("fall back: the repeated hour never fires twice and times only increase", () => {
    inZone("Europe/Berlin", () => {
      for (const expression of ["30 2 * * *", "*/30 * * * *", "* * * * *"]) {
        let previous = at(2026, 10, 25, 1, 30);
        const runs: number[] = [];
        while (previous.getTime() < at(2026, 10, 25, 4).getTime()) {
          const next = nextRun(expression, previous)!;
          expect(next.getTime()).toBeGreaterThan(previous.getTime());
          runs.push(next.getTime());
          previous = next;
        }
        const wallTimes = runs.map((t) => new Date(t).toLocaleString("en-GB", { timeZone: "Europe/Berlin" }));
        expect(new Set(wallTimes).size).toBe(wallTimes.length);
      }
      // From the second 02:30 (CET, after the clocks went back) the next 02:30 is the next day's.
      const secondHalfPast = new Date(at(2026, 10, 25, 2, 30).getTime() + 3_600_000);
      expect(secondHalfPast.getHours()).toBe(2);
      expect(nextRun("30 2 * * *", secondHalfPast)).toEqual(at(2026, 10, 26, 2, 30));
    });
  });
});

describe("parseCron", () => {
  test("expands fields into sorted values", () => {
    const s = parseCron("0,30 */6 1-3 JAN-MAR/2 7,1");
    expect(s.minutes).toEqual([0, 30]);
    expect(s.hours).toEqual([0, 6, 12, 18]);
    expect(s.daysOfMonth).toEqual([1, 2, 3]);
    expect(s.months).toEqual([1, 3]);
    expect(s.weekdays).toEqual([0, 1]);
    expect(s.dayOfMonthRestricted).toBe(true);
    expect(s.dayOfWeekRestricted).toBe(true);
  });

  test("a day field starting with * or being ? is unrestricted (Vixie's DOM_STAR)", () => {
    expect(parseCron("0 0 */2 * 1").dayOfMonthRestricted).toBe(false);
    expect(parseCron("0 0 ? * 1").dayOfMonthRestricted).toBe(false);
    expect(parseCron("0 0 1 * ?").dayOfWeekRestricted).toBe(false);
    expect(parseCron("0 0 1 * ?").weekdays).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(parseCron("0 0 1-31 * 1").dayOfMonthRestricted).toBe(true);
  });

  test("the error is ErrTaskScheduleInvalid with the schedule", () => {
    try {
      parseCron("61 * * * *");
      throw new Error("not thrown");
    } catch (error) {
      expect(error).toBeInstanceOf(KilnError);
      expect((error as KilnError).code).toBe("ErrTaskScheduleInvalid");
      expect((error as KilnError).metadata).toEqual({ schedule: "61 * * * *" });
    }
  });
});

const VALID = [
  "* * * * *", DEFAULT_TASK_CRON, "0 0 ? * ?", "0 0 1 jan *", "0 0 * * sun-sat", "0 0 * * 0-7",
  "@ANNUALLY", "  0 0 * * *  ", "0\t0 * * *", "*/60 */24 */31 */12 */8", "59 23 31 12 6",
  "15 */2 * * ?", "30 6 */1 * ?", "0 9 ? * 1,3,5", "0 12 15 */3 ?",
];

const INVALID = [
  "", "   ", "* * * *", "* * * * * *", "0 0 0 * * *",
  "60 * * * *", "* 24 * * *", "* * 0 * *", "* * 32 * *", "* * * 0 *", "* * * 13 *", "* * * * 8",
  "5-1 * * * *", "*/0 * * * *", "1-5/0 * * * *", "*/61 * * * *",
  "1,,2 * * * *", ",1 * * * *", "1, * * * *",
  "a * * * *", "? * * * *", "* ? * * *", "* * * ? *", "* * ?/2 * *", "* * ?,1 * *",
  "@reboot", "@every 5m", "@", "1-2-3 * * * *", "*/5/2 * * * *", "1.5 * * * *", "-1 * * * *",
  "* * * FOO *", "* * * * MONDAY", "* * * JAN-FOO *", "*/ * * * *", "/5 * * * *", "0x1f * * * *", "1e1 * * * *",
  "* * * * SUN/", "*-5 * * * *", "L * * * *", "0 0 L * *", "0 0 * * 5#3",
];

describe("isValidCron", () => {
  for (const expression of VALID) test(`accepts ${JSON.stringify(expression)}`, () => expect(isValidCron(expression)).toBe(true));
  for (const expression of INVALID) test(`rejects ${JSON.stringify(expression)}`, () => {
    expect(isValidCron(expression)).toBe(false);
    expect(() => parseCron(expression)).toThrow(KilnError);
  });
});

describe("expandAlias", () => {
  test("aliases, any case, trimmed; anything else trimmed", () => {
    expect(expandAlias(" @Yearly ")).toBe("0 0 1 1 *");
    expect(expandAlias("@hourly")).toBe("0 * * * *");
    expect(expandAlias("@reboot")).toBe("@reboot");
    expect(expandAlias("  1 2 3 4 5 ")).toBe("1 2 3 4 5");
  });
});
