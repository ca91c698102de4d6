import { describe, expect, test } from "bun:test";
import { LOCALES, flagEmoji, isLocale, localeFromAcceptLanguage, matchLocale } from "./locales";
import { interpolate, makeTranslate } from "./translate";

describe("locales", () => {
  test("about forty locales are offered, en_US among them", () => {
    expect(LOCALES.length).toBeGreaterThanOrEqual(38);
    expect(LOCALES).toContain("en_US");
    expect(new Set(LOCALES).size).toBe(LOCALES.length);
  });

  test("only shipped names are locales; nothing path-like passes", () => {
    expect(isLocale("de_DE")).toBe(true);
    for (const bad of ["../../etc/passwd", "de", "de_DE/..", "", "en_US\0"]) expect(isLocale(bad)).toBe(false);
  });

  test("Accept-Language picks the best shipped locale by weight", () => {
    expect(localeFromAcceptLanguage("fr-CH, fr;q=0.9, en;q=0.8")).toBe("fr_FR");
    expect(localeFromAcceptLanguage("xx, de;q=0.5")).toBe("de_DE");
    expect(localeFromAcceptLanguage("en-GB,en;q=0.9")).toBe("en_GB");
    expect(localeFromAcceptLanguage("pt-BR")).toBe("pt_BR");
    expect(localeFromAcceptLanguage("tlh")).toBeUndefined();
    expect(localeFromAcceptLanguage(undefined)).toBeUndefined();
    expect(matchLocale("EN")).toBe("en_US");
  });

  test("flags come from the country part of the code", () => {
    expect(flagEmoji("de_DE")).toBe("🇩🇪");
    expect(flagEmoji("pt_BR")).toBe("🇧🇷");
    expect(flagEmoji("xx")).toBe("🏳️");
  });

  test("placeholders are filled, missing keys show the key", () => {
    expect(interpolate("{field} must be between {min} and {max}", { field: "port", min: 1, max: 9 })).toBe("port must be between 1 and 9");
    expect(interpolate("missing {x}", {})).toBe("missing {x}");
    expect(interpolate("one of {expected}", { expected: ["java", "tar"] })).toBe("one of java, tar");
    const t = makeTranslate({ a: "A {n}" });
    expect(t("a", { n: 2 })).toBe("A 2");
    expect(t("nope")).toBe("nope");
  });
});
