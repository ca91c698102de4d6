// The browser's schedule words must be the tasks list's: every language the server can pick has a
// loader here, and the words come out the same.
import { describe, expect, test } from "bun:test";
import { LOCALES } from "../../core/i18n/locales";
import { cronstrueLocale, describeSchedule } from "../../core/cron/describe";
import { CRONSTRUE_LOCALES, loadDescriber } from "./describe-cron";

describe("loadDescriber", () => {
  test("every panel locale's cronstrue language is English or has a loader", () => {
    for (const locale of LOCALES) {
      const language = cronstrueLocale(locale);
      expect(language === "en" || language in CRONSTRUE_LOCALES).toBe(true);
    }
  });

  test("the same words as the server's, in each language", async () => {
    for (const locale of ["en_US", "de_DE", "fr_FR", "pt_BR", "zh_TW", "el_GR"]) {
      const describeHere = await loadDescriber(cronstrueLocale(locale));
      for (const expression of ["30 6 ? * 1", "0 */3 * * ?", "15 4 1 */2 ?", "@weekly"]) {
        expect(describeHere(expression)).toBe(describeSchedule(expression, locale));
      }
    }
  });

  test("an expression cronstrue cannot read has no words", async () => {
    expect((await loadDescriber("en"))("not a cron")).toBeNull();
  });
});
