// Builds one merged message table per offered locale: English, then the language, then the exact
// locale, so a gap in a translation reads in English rather than as a key. Beside the files it
// reads, so the panel and its server-rendered views both take their messages from here (views
// import no server code; test/architecture.test.ts).
import { DEFAULT_LOCALE, LOCALES, languageOf, type Locale } from "../core/i18n/locales";
import { makeTranslate, type Messages, type Translate } from "../core/i18n/translate";
import { REFERENCE, TRANSLATION_FILES, translation } from "./index";

const tables = new Map<Locale, Messages>();

export function messagesFor(locale: Locale): Messages {
  let table = tables.get(locale);
  if (!table) {
    table = { ...REFERENCE, ...translation(languageOf(locale)), ...translation(locale) };
    tables.set(locale, table);
  }
  return table;
}

const translators = new Map<Locale, Translate>();

/** One translator per locale, made on first use (a request asks for its locale's every time). */
export function translatorFor(locale: Locale): Translate {
  let translate = translators.get(locale);
  if (!translate) {
    translate = makeTranslate(messagesFor(locale), locale);
    translators.set(locale, translate);
  }
  return translate;
}

/** Picks made, by locale and prefixes: a page's islands ask for the same few every time. */
const picks = new Map<string, Messages>();
/** Past this many (the i18n route takes prefixes from its caller) the kept picks start again. */
const PICKS_MAX = 500;

/** Messages whose key starts with one of the prefixes: what an island needs in the browser. Read only. */
export function pickMessages(locale: Locale, prefixes: readonly string[]): Messages {
  const id = `${locale}\n${prefixes.join("\n")}`;
  let out = picks.get(id);
  if (out) return out;
  const all = messagesFor(locale);
  out = {};
  for (const key of Object.keys(all)) if (prefixes.some((p) => key.startsWith(p))) out[key] = all[key]!;
  if (picks.size >= PICKS_MAX) picks.clear();
  picks.set(id, Object.freeze(out));
  return out;
}

/**
 * How much of the English reference a locale's pages show translated: 1 or 0. Only whole
 * translations ship (locales/locales.test.ts fails on any gap), and an unfinished one waits in
 * locales/drafts without being loaded, so its pages read in English: 0 is what its reader gets.
 * Worked out from the file table, so no translation is read to draw the picker.
 */
export function completeness(locale: Locale): number {
  const lang = languageOf(locale);
  return lang === "en" || Object.hasOwn(TRANSLATION_FILES, lang) || Object.hasOwn(TRANSLATION_FILES, locale) ? 1 : 0;
}

export { DEFAULT_LOCALE, LOCALES };
