// The locales the picker offers (about forty; English is the reference).
// A locale name from outside is only ever used after matching it against this list.
import { intlTag } from "./translate";

export const DEFAULT_LOCALE = "en_US";

export const LOCALES = [
  "ar_SA", "bg_BG", "ca_ES", "cs_CZ", "da_DK", "de_DE", "el_GR", "en_GB", "en_US", "es_ES",
  "et_EE", "fa_IR", "fi_FI", "fr_FR", "he_IL", "hi_IN", "hr_HR", "hu_HU", "id_ID", "it_IT",
  "ja_JP", "ko_KR", "lt_LT", "lv_LV", "ms_MY", "nl_NL", "no_NO", "pl_PL", "pt_BR", "pt_PT",
  "ro_RO", "ru_RU", "sk_SK", "sl_SI", "sr_RS", "sv_SE", "th_TH", "tr_TR", "uk_UA", "vi_VN",
  "zh_CN", "zh_TW",
] as const;

export type Locale = (typeof LOCALES)[number];

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** Accepts "de", "de-DE", "de_de": the shipped locale it names, or undefined. */
export function matchLocale(tag: string): Locale | undefined {
  const [lang = "", region = ""] = tag.trim().replace("-", "_").split("_");
  const exact = `${lang.toLowerCase()}_${region.toUpperCase()}`;
  if (isLocale(exact)) return exact;
  if (lang === "") return undefined;
  if (lang.toLowerCase() === "en") return DEFAULT_LOCALE;
  return LOCALES.find((l) => l.startsWith(`${lang.toLowerCase()}_`));
}

/** Picks from an Accept-Language header, honouring q weights. */
export function localeFromAcceptLanguage(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(params.find((p) => p.trim().startsWith("q="))?.split("=")[1] ?? 1);
      return { tag, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return undefined;
}

/** Regional-indicator flag from the country part of a locale code ("de_DE" → 🇩🇪). */
export function flagEmoji(locale: string): string {
  const country = locale.split("_")[1] ?? "";
  if (!/^[A-Z]{2}$/.test(country)) return "🏳️";
  return String.fromCodePoint(...[...country].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/** The language part of a locale name ("pt_BR" → "pt"). */
export function languageOf(locale: string): string {
  return locale.split("_")[0] ?? "";
}

/** Languages written right to left among those offered. */
const RIGHT_TO_LEFT = new Set(["ar", "fa", "he"]);

/** The HTML dir attribute for a locale. */
export function textDirection(locale: Locale): "rtl" | "ltr" {
  return RIGHT_TO_LEFT.has(languageOf(locale)) ? "rtl" : "ltr";
}

/** The HTML lang attribute for a locale ("pt_BR" → "pt-BR"). */
export function htmlLang(locale: Locale): string {
  return intlTag(locale);
}
