// Looks a key up in a message table and fills {placeholders}; used by the server and by islands.
export type Messages = Record<string, string>;
export type Params = Record<string, string | number | boolean | string[] | undefined>;
export type Translate = (key: string, params?: Params) => string;

export function interpolate(text: string, params?: Params): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return Array.isArray(value) ? value.join(", ") : String(value);
  });
}

/** A missing key shows the key itself, so a gap is visible instead of an empty label. */
export function makeTranslate(messages: Messages): Translate {
  return (key, params) => interpolate(messages[key] ?? key, params);
}
