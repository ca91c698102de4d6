import { describe, expect, test } from "bun:test";
import { LOCALES, flagEmoji, isLocale, localeFromAcceptLanguage, matchLocale, textDirection } from "./locales";
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

  test("a plural message takes the form its language's rules pick for the count", () => {
    const ru = makeTranslate({ "n#one": "{count} сервер", "n#few": "{count} сервера", "n#many": "{count} серверов", "n#other": "{count} сервера" }, "ru_RU");
    expect([1, 2, 5, 21, 22, 25, 111].map((count) => ru("n", { count }))).toEqual(["1 сервер", "2 сервера", "5 серверов", "21 сервер", "22 сервера", "25 серверов", "111 серверов"]);
    const ar = makeTranslate({ "n#zero": "zero", "n#one": "one", "n#two": "two", "n#few": "few {count}", "n#many": "many {count}", "n#other": "other {count}" }, "ar_SA");
    expect([0, 1, 2, 3, 11, 100].map((count) => ar("n", { count }).split(" ")[0])).toEqual(["zero", "one", "two", "few", "many", "other"]);
    // Japanese has one form; a language's table lacking a category falls back to "other".
    expect(makeTranslate({ "n#other": "サーバー {count} 台" }, "ja_JP")("n", { count: 1 })).toBe("サーバー 1 台");
    // Without `count`, the only number among the values picks; asked without one, the general form.
    const en = makeTranslate({ "m#one": "at least {length} character", "m#other": "at least {length} characters" });
    expect(en("m", { length: 1 })).toBe("at least 1 character");
    expect(en("m", { length: 8 })).toBe("at least 8 characters");
    expect(en("m")).toBe("at least {length} characters");
  });

  test("counts are written in the locale's digits and separators; other numbers as they are", () => {
    expect(makeTranslate({ "n#other": "{count} files on port {port}" }, "de_DE")("n", { count: 12345, port: 25565 })).toBe("12.345 files on port 25565");
    expect(makeTranslate({}, "pt_BR").locale).toBe("pt-BR");
  });

  test("Arabic, Persian and Hebrew pages run right to left, the others left to right", () => {
    expect(LOCALES.filter((l) => textDirection(l) === "rtl")).toEqual(["ar_SA", "fa_IR", "he_IL"]);
  });
});
