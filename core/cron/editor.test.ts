import { describe, expect, test } from "bun:test";
import { DEFAULT_TASK_CRON } from "../tasks/constants";
import { cronToForm, defaultCronForm, formIsValid, formToCron, switchMode, toggleWeekday, type CronForm } from ".";

const form = (fields: Partial<CronForm>): CronForm => ({ ...defaultCronForm(), ...fields });

describe("defaultCronForm", () => {
  test("daily at 00:00 every 1 day; the default task cron in advanced", () => {
    expect(defaultCronForm()).toEqual({ mode: "daily", minute: 0, hour: 0, everyHours: 1, everyDays: 1, dayOfMonth: 1, everyMonths: 1, weekdays: [], weekdaysSuggested: false, advanced: DEFAULT_TASK_CRON });
    expect(formToCron(defaultCronForm())).toBe("0 0 */1 * ?");
    expect(formIsValid(defaultCronForm())).toBe(true);
  });

  test("null, undefined and blank give the default", () => {
    expect(cronToForm(null)).toEqual(defaultCronForm());
    expect(cronToForm(undefined)).toEqual(defaultCronForm());
    expect(cronToForm("  ")).toEqual(defaultCronForm());
  });
});

describe("cronToForm", () => {
  const CASES: [string, Partial<CronForm>][] = [
    ["30 */2 * * ?", { mode: "hourly", minute: 30, everyHours: 2 }],
    ["30 */2 * * *", { mode: "hourly", minute: 30, everyHours: 2 }],
    ["@hourly", { mode: "hourly", minute: 0, everyHours: 1 }],
    ["15 6 */3 * ?", { mode: "daily", minute: 15, hour: 6, everyDays: 3 }],
    [DEFAULT_TASK_CRON, { mode: "daily", minute: 0, hour: 0, everyDays: 1 }],
    ["@daily", { mode: "daily", minute: 0, hour: 0, everyDays: 1 }],
    ["0 8 ? * 5,1,3,1", { mode: "weekly", minute: 0, hour: 8, weekdays: [1, 3, 5] }],
    ["0 8 * * 7,6", { mode: "weekly", minute: 0, hour: 8, weekdays: [0, 6] }],
    ["@weekly", { mode: "weekly", minute: 0, hour: 0, weekdays: [0] }],
    ["45 23 31 */6 ?", { mode: "monthly", minute: 45, hour: 23, dayOfMonth: 31, everyMonths: 6 }],
    ["@monthly", { mode: "monthly", minute: 0, hour: 0, dayOfMonth: 1, everyMonths: 1 }],
  ];
  for (const [expression, expected] of CASES) {
    test(`${expression} → ${expected.mode}`, () => {
      expect(cronToForm(expression)).toEqual(form({ ...expected, advanced: expression }));
    });
  }

  const ADVANCED = [
    "* * * * *", "@yearly", "0 0 1 1 *", "0 9-17 * * *", "0 9 * * MON-FRI", "0 9 ? * MON", "0 9 ? * 1-5",
    "0 */2 1 * *", "0 0 13 * 5", "0 0 1 */2 1", "0,30 * * * *", "0 */24 * * *", "0 0 */2 2 *",
    "not a cron", "0 0 30 2 * *", "61 */2 * * ?",
  ];
  for (const expression of ADVANCED) {
    test(`${JSON.stringify(expression)} → advanced`, () => {
      expect(cronToForm(expression)).toEqual(form({ mode: "advanced", advanced: expression }));
    });
  }
});

describe("formToCron", () => {
  test("builds exactly the forms the editor offers", () => {
    expect(formToCron(form({ mode: "hourly", minute: 5, everyHours: 3 }))).toBe("5 */3 * * ?");
    expect(formToCron(form({ mode: "daily", minute: 5, hour: 3, everyDays: 2 }))).toBe("5 3 */2 * ?");
    expect(formToCron(form({ mode: "weekly", minute: 5, hour: 3, weekdays: [6, 0, 3, 0] }))).toBe("5 3 ? * 0,3,6");
    expect(formToCron(form({ mode: "monthly", minute: 5, hour: 3, dayOfMonth: 28, everyMonths: 2 }))).toBe("5 3 28 */2 ?");
    expect(formToCron(form({ mode: "advanced", advanced: "  @daily " }))).toBe("@daily");
  });

  test("round trip: cronToForm reads back every string formToCron writes", () => {
    const forms: CronForm[] = [
      form({ mode: "hourly", minute: 59, everyHours: 23 }),
      form({ mode: "hourly", minute: 0, everyHours: 1 }),
      form({ mode: "daily", minute: 30, hour: 12, everyDays: 31 }),
      form({ mode: "weekly", minute: 1, hour: 2, weekdays: [0, 1, 2, 3, 4, 5, 6] }),
      form({ mode: "weekly", minute: 1, hour: 2, weekdays: [4] }),
      form({ mode: "monthly", minute: 0, hour: 0, dayOfMonth: 1, everyMonths: 12 }),
      form({ mode: "advanced", advanced: "0 9 * * MON-FRI" }),
    ];
    for (const f of forms) {
      const expression = formToCron(f);
      expect(formToCron(cronToForm(expression))).toBe(expression);
      expect(cronToForm(expression).mode).toBe(f.mode);
    }
  });
});

describe("switchMode", () => {
  test("the time stays the time: an hourly interval, a daily interval and a day of the month are fields of their own", () => {
    const daily = form({ mode: "daily", minute: 30, hour: 6, everyDays: 2 });
    const hourly = switchMode(daily, "hourly");
    expect(hourly).toMatchObject({ mode: "hourly", minute: 30, everyHours: 1 });
    expect(formToCron(hourly)).toBe("30 */1 * * ?");
    const hourlyEvery3 = { ...hourly, everyHours: 3 };
    for (const mode of ["daily", "weekly", "monthly"] as const) expect(switchMode(hourlyEvery3, mode)).toMatchObject({ minute: 30, hour: 6 });
    expect(switchMode(switchMode(hourlyEvery3, "monthly"), "daily").everyDays).toBe(2);
    expect(switchMode({ ...switchMode(daily, "monthly"), dayOfMonth: 15 }, "daily").everyDays).toBe(2);
    expect(switchMode(switchMode(hourlyEvery3, "daily"), "hourly").everyHours).toBe(3);
  });

  test("an interval of 0 or an emptied input becomes 1", () => {
    expect(switchMode(form({ everyHours: 0 }), "hourly").everyHours).toBe(1);
    expect(switchMode(form({ everyHours: Number.NaN }), "hourly").everyHours).toBe(1);
    expect(switchMode(form({ mode: "monthly", everyDays: 0 }), "daily").everyDays).toBe(1);
    expect(switchMode(form({ everyMonths: 0 }), "monthly").everyMonths).toBe(1);
    expect(switchMode(form({ everyMonths: Number.NaN }), "monthly").everyMonths).toBe(1);
  });

  test("to weekly with no day picked selects Sunday, as a suggestion; picked days stay", () => {
    expect(switchMode(defaultCronForm(), "weekly")).toMatchObject({ weekdays: [0], weekdaysSuggested: true });
    expect(switchMode(form({ weekdays: [2, 4] }), "weekly")).toMatchObject({ weekdays: [2, 4], weekdaysSuggested: false });
  });

  test("to advanced the text is the expression of the mode being left", () => {
    const weekly = form({ mode: "weekly", minute: 15, hour: 7, weekdays: [1, 5] });
    expect(switchMode(weekly, "advanced")).toMatchObject({ mode: "advanced", advanced: "15 7 ? * 1,5" });
    const advanced = form({ mode: "advanced", advanced: "0 9 * * MON-FRI" });
    expect(switchMode(advanced, "advanced").advanced).toBe("0 9 * * MON-FRI");
  });

  test("from advanced: the text's own fields when it has the new mode's shape, else the current fields", () => {
    const advanced = form({ mode: "advanced", minute: 1, hour: 2, advanced: "45 23 31 */6 ?" });
    expect(switchMode(advanced, "monthly")).toMatchObject({ mode: "monthly", minute: 45, hour: 23, dayOfMonth: 31, everyMonths: 6 });
    expect(switchMode(advanced, "daily")).toMatchObject({ mode: "daily", minute: 1, hour: 2, everyDays: 1 });
    expect(switchMode(form({ mode: "advanced", everyHours: 0, advanced: "junk" }), "hourly")).toMatchObject({ mode: "hourly", everyHours: 1 });
  });

  test("does not share the weekdays array with the form it came from", () => {
    const before = form({ weekdays: [1] });
    switchMode(before, "weekly").weekdays.push(2);
    expect(before.weekdays).toEqual([1]);
  });
});

describe("toggleWeekday", () => {
  test("adds and removes days, kept in order", () => {
    expect(toggleWeekday(form({ mode: "weekly", weekdays: [3] }), 1).weekdays).toEqual([1, 3]);
    expect(toggleWeekday(form({ mode: "weekly", weekdays: [1, 3] }), 3).weekdays).toEqual([1]);
  });

  test("a suggested Sunday is replaced by the first day picked, or removed when pressed itself", () => {
    const suggested = switchMode(defaultCronForm(), "weekly");
    const monday = toggleWeekday(suggested, 1);
    expect(monday).toMatchObject({ weekdays: [1], weekdaysSuggested: false });
    expect(toggleWeekday(monday, 3).weekdays).toEqual([1, 3]);
    expect(toggleWeekday(suggested, 0)).toMatchObject({ weekdays: [], weekdaysSuggested: false });
  });
});

describe("formIsValid", () => {
  test("every field in range for its mode", () => {
    expect(formIsValid(form({ mode: "hourly", everyHours: 1 }))).toBe(true);
    expect(formIsValid(form({ mode: "hourly", everyHours: 0 }))).toBe(false);
    expect(formIsValid(form({ mode: "hourly", everyHours: 24 }))).toBe(false);
    // Hourly shows no hour of the day: an unset one does not matter there.
    expect(formIsValid(form({ mode: "hourly", hour: Number.NaN }))).toBe(true);
    expect(formIsValid(form({ mode: "daily", hour: 23, everyDays: 31 }))).toBe(true);
    expect(formIsValid(form({ mode: "daily", hour: 24 }))).toBe(false);
    expect(formIsValid(form({ mode: "daily", everyDays: 0 }))).toBe(false);
    expect(formIsValid(form({ mode: "daily", minute: 60 }))).toBe(false);
    expect(formIsValid(form({ mode: "daily", minute: 1.5 }))).toBe(false);
    expect(formIsValid(form({ mode: "daily", minute: Number.NaN }))).toBe(false);
    expect(formIsValid(form({ mode: "weekly", weekdays: [] }))).toBe(false);
    expect(formIsValid(form({ mode: "weekly", weekdays: [0, 6] }))).toBe(true);
    expect(formIsValid(form({ mode: "weekly", weekdays: [7] }))).toBe(false);
    expect(formIsValid(form({ mode: "monthly", dayOfMonth: 31, everyMonths: 12 }))).toBe(true);
    expect(formIsValid(form({ mode: "monthly", dayOfMonth: 32 }))).toBe(false);
    expect(formIsValid(form({ mode: "monthly", everyMonths: 13 }))).toBe(false);
    expect(formIsValid(form({ mode: "advanced", advanced: "@weekly" }))).toBe(true);
    expect(formIsValid(form({ mode: "advanced", advanced: "@reboot" }))).toBe(false);
  });
});
