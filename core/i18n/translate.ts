// Looks a key up in a message table and fills {placeholders}; used by the server and by islands.
//
// Plurals: a message that depends on a number has one key per plural category of the language,
// `key#one`, `key#few`, `key#other`…, chosen with Intl.PluralRules for the table's locale. The
// number chosen on is the `count` value, or, when there is none, the only number among the values.
// `count` itself is written with Intl.NumberFormat ("1 234" in French); other numbers (ports, exit
// codes, limits in a field's unit) are written as they are, since grouping them would misread.
export type Messages = Record<string, string>;
export type Params = Record<string, string | number | boolean | string[] | undefined>;
/** A translator knows its locale (a BCP 47 tag), so what it labels can format numbers and dates alike. */
export type Translate = ((key: string, params?: Params) => string) & { readonly locale: string };

export const PLURAL_MARK = "#";

export function interpolate(text: string, params?: Params): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return Array.isArray(value) ? value.join(", ") : String(value);
  });
}

/** The number a plural message is chosen on, if the values hold one. */
export function pluralNumber(params?: Params): number | undefined {
  if (!params) return undefined;
  if (typeof params.count === "number") return params.count;
  const numbers = Object.values(params).filter((v): v is number => typeof v === "number");
  return numbers.length === 1 ? numbers[0] : undefined;
}

/** The BCP 47 tag of a locale name ("pt_BR" → "pt-BR"); Intl takes either language or tag. */
export function intlTag(locale: string): string {
  return locale.replace("_", "-");
}

// One of each per language for the process's life: a translator is made for every request.
const pluralRules = new Map<string, Intl.PluralRules>();
const countFormats = new Map<string, Intl.NumberFormat>();

function cached<T>(cache: Map<string, T>, tag: string, make: () => T): T {
  let value = cache.get(tag);
  if (value === undefined) cache.set(tag, (value = make()));
  return value;
}

/** A missing key shows the key itself, so a gap is visible instead of an empty label. */
export function makeTranslate(messages: Messages, locale = "en"): Translate {
  const tag = intlTag(locale);
  const translate = (key: string, params?: Params): string => {
    let text = messages[key];
    if (text === undefined) {
      // A plural message; asked for without its number, it reads in its general form.
      const n = pluralNumber(params);
      const category = n === undefined ? "other" : cached(pluralRules, tag, () => new Intl.PluralRules(tag)).select(n);
      text = messages[`${key}${PLURAL_MARK}${category}`] ?? messages[`${key}${PLURAL_MARK}other`] ?? key;
    }
    if (params && typeof params.count === "number") {
      params = { ...params, count: cached(countFormats, tag, () => new Intl.NumberFormat(tag)).format(params.count) };
    }
    return interpolate(text, params);
  };
  return Object.assign(translate, { locale: tag });
}
