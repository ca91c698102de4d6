// Builds one merged message table per offered locale: English, then the language, then the exact locale.
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../core/i18n/locales";
import { makeTranslate, type Messages, type Translate } from "../../core/i18n/translate";
import { REFERENCE, TRANSLATIONS } from "../../locales";

const tables = new Map<Locale, Messages>();

export function messagesFor(locale: Locale): Messages {
  let table = tables.get(locale);
  if (!table) {
    const lang = locale.split("_")[0] ?? "";
    table = { ...REFERENCE, ...TRANSLATIONS[lang], ...TRANSLATIONS[locale] };
    tables.set(locale, table);
  }
  return table;
}

export function translatorFor(locale: Locale): Translate {
  return makeTranslate(messagesFor(locale));
}

/** Messages whose key starts with one of the prefixes: what an island needs in the browser. */
export function pickMessages(locale: Locale, prefixes: readonly string[]): Messages {
  const all = messagesFor(locale);
  const out: Messages = {};
  for (const key of Object.keys(all)) if (prefixes.some((p) => key.startsWith(p))) out[key] = all[key]!;
  return out;
}

/** True when the locale has its own translation file (English counts as complete). */
export function isTranslated(locale: Locale): boolean {
  const lang = locale.split("_")[0] ?? "";
  return lang === "en" || TRANSLATIONS[locale] !== undefined || TRANSLATIONS[lang] !== undefined;
}

export { DEFAULT_LOCALE, LOCALES };
