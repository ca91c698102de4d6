// The readable schedule of the tasks tab: cronstrue in the panel locale's language, 24-hour time,
// aliases expanded first, null for manual-only tasks.
import { describe, expect, test } from "bun:test";
import { cronstrueLocale, describeSchedule } from "./describe";

describe("describeSchedule", () => {
  test("a weekly expression in English and German, with 24-hour time", () => {
    expect(describeSchedule("30 18 ? * 1,3", "en_US")).toBe("At 18:30, only on Monday and Wednesday");
    expect(describeSchedule("30 18 ? * 1,3", "de_DE")).toBe("Um 18:30, nur jeden Montag und Mittwoch");
  });

  test("the default daily schedule", () => {
    expect(describeSchedule("0 0 */1 * *", "en_US")).toBe("At 00:00");
  });

  test("no schedule is manual only: null", () => {
    expect(describeSchedule(null, "en_US")).toBeNull();
    expect(describeSchedule("", "en_US")).toBeNull();
    expect(describeSchedule("   ", "de_DE")).toBeNull();
  });

  test("aliases are expanded before they are described", () => {
    expect(describeSchedule("@daily", "en_US")).toBe(describeSchedule("0 0 * * *", "en_US")!);
    expect(describeSchedule("@hourly", "en_US")).toBe("Every hour");
  });

  test("a locale cronstrue does not know is described in English", () => {
    expect(describeSchedule("30 18 ? * 1,3", "xx_YY")).toBe("At 18:30, only on Monday and Wednesday");
    expect(cronstrueLocale("el_GR")).toBe("en");
    expect(cronstrueLocale("")).toBe("en");
  });

  test("Chinese maps to two languages; others use the language part or their regional variant", () => {
    for (const tag of ["zh_CN", "zh-CN", "zh-Hans", "zh-SG", "zh"]) expect(cronstrueLocale(tag)).toBe("zh_CN");
    for (const tag of ["zh_TW", "zh-TW", "zh-Hant", "zh-HK", "zh-Hant-TW"]) expect(cronstrueLocale(tag)).toBe("zh_TW");
    expect(describeSchedule("30 18 ? * 1,3", "zh_TW")).not.toBe(describeSchedule("30 18 ? * 1,3", "zh_CN")!);
    expect(cronstrueLocale("de-AT")).toBe("de");
    expect(cronstrueLocale("fr_FR")).toBe("fr");
    expect(cronstrueLocale("pt_BR")).toBe("pt_BR");
    expect(cronstrueLocale("pt-PT")).toBe("pt_PT");
    expect(cronstrueLocale("no_NO")).toBe("nb");
  });
});
