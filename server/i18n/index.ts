// Builds one merged message table per offered locale: English, then the language, then the exact
// locale, so a gap in a translation reads in English rather than as a key.
import { readFileSync } from "node:fs";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../core/i18n/locales";
import { makeTranslate, type Messages, type Translate } from "../../core/i18n/translate";
import { REFERENCE, TRANSLATION_FILES, translation } from "../../locales";
import { translatedShare } from "../../locales/check";

const tables = new Map<Locale, Messages>();

function languageOf(locale: Locale): string {
  return locale.split("_")[0] ?? "";
}

export function messagesFor(locale: Locale): Messages {
  let table = tables.get(locale);
  if (!table) {
    table = { ...REFERENCE, ...translation(languageOf(locale)), ...translation(locale) };
    tables.set(locale, table);
  }
  return table;
}

export function translatorFor(locale: Locale): Translate {
  return makeTranslate(messagesFor(locale), locale);
}

/** Messages whose key starts with one of the prefixes: what an island needs in the browser. */
export function pickMessages(locale: Locale, prefixes: readonly string[]): Messages {
  const all = messagesFor(locale);
  const out: Messages = {};
  for (const key of Object.keys(all)) if (prefixes.some((p) => key.startsWith(p))) out[key] = all[key]!;
  return out;
}

let shares: Map<Locale, number> | undefined;

/**
 * How much of the English reference each locale translates, from 0 to 1 (English is whole). Worked
 * out once from the files without keeping their tables, which load only for pages in that language.
 */
export function completeness(locale: Locale): number {
  if (!shares) {
    shares = new Map();
    for (const l of LOCALES) {
      if (languageOf(l) === "en") {
        shares.set(l, 1);
        continue;
      }
      const read = (name: string): Messages => (Object.hasOwn(TRANSLATION_FILES, name) ? (JSON.parse(readFileSync(TRANSLATION_FILES[name]!, "utf8")) as Messages) : {});
      shares.set(l, translatedShare(REFERENCE, { ...read(languageOf(l)), ...read(l) }));
    }
  }
  return shares.get(locale) ?? 0;
}

export { DEFAULT_LOCALE, LOCALES };
