// What makes a translation file whole and sound, shared by the locale tests and the translators'
// script (scripts/i18n.ts): every reference key present, no key the reference lacks, the same
// {placeholders}, one variant per plural category the language has (Intl.PluralRules), and no
// English left where a translation belongs. A value may equal the English one when nothing in it
// is translatable (product names, units, placeholders) or when the locale's allow-list
// (locales/same/<name>.json) names the key: a word that is the same in that language ("Status").
import { PLURAL_MARK, intlTag, type Messages } from "../core/i18n/translate";

/** Names that stay as they are in every language (the rule: product and protocol names). */
const KEPT_NAMES = [
  "Kiln", "PufferPanel", "Pterodactyl", "Pelican", "Wings", "SFTP", "SSH", "Docker", "OAuth2", "OAuth", "cron", "restic", "S3",
  "URL", "URLs", "JSON", "YAML", "TOML", "ID", "IDs", "TOTP", "WebAuthn", "CPU", "RAM", "HTTP", "HTTPS", "API", "IP", "TCP", "UDP",
  "Java", "Minecraft", "Steam", "SteamCMD", "Forge", "NeoForge", "Fabric", "Sponge", "CurseForge", "Modrinth", "Paper", "Hangar", "Spiget", "SpigotMC", "UTF-8", "SMTP", "CEL",
  "B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB", "ms", "s", "MB/MiB", "OK", "RCON", "stdin", "GitHub", "Linux", "Windows",
];
const KEPT = new RegExp(`(?<![\\p{L}])(${KEPT_NAMES.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})(?![\\p{L}])`, "gu");

export interface LocaleProblems {
  missing: string[];
  extra: string[];
  placeholders: string[];
  plurals: string[];
  english: string[];
  empty: string[];
}

export function pluralCategories(name: string): string[] {
  return new Intl.PluralRules(intlTag(name)).resolvedOptions().pluralCategories as string[];
}

/** True when the language's category holds one number only (Arabic "zero", "one" and "two"), so its variant may say the number in words. */
function singleNumber(name: string, category: string): boolean {
  const rules = new Intl.PluralRules(intlTag(name));
  let seen = 0;
  for (let n = 0; n <= 1000 && seen < 2; n++) if (rules.select(n) === category) seen++;
  return seen < 2;
}

const baseOf = (key: string) => key.split(PLURAL_MARK)[0]!;
const isPlural = (key: string) => key.includes(PLURAL_MARK);
const placeholderSet = (text: string) => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort().join(",");

/** True when the English text has words a translator should have put in their language. */
export function hasTranslatableWords(english: string): boolean {
  return /\p{L}{2,}/u.test(english.replace(/\{\w+\}/g, " ").replace(KEPT, " "));
}

/** Reference units: plain keys, and each plural message once (by its base key). */
function referenceUnits(reference: Messages): { plain: string[]; plural: Map<string, string[]> } {
  const plain: string[] = [];
  const plural = new Map<string, string[]>();
  for (const key of Object.keys(reference)) {
    if (!isPlural(key)) plain.push(key);
    else plural.set(baseOf(key), [...(plural.get(baseOf(key)) ?? []), key]);
  }
  return { plain, plural };
}

/** The share of the reference's messages a table translates, from 0 to 1. */
export function translatedShare(reference: Messages, table: Messages): number {
  const { plain, plural } = referenceUnits(reference);
  const total = plain.length + plural.size;
  let done = plain.filter((k) => Object.hasOwn(table, k)).length;
  for (const base of plural.keys()) if (Object.hasOwn(table, `${base}${PLURAL_MARK}other`)) done++;
  return total === 0 ? 1 : done / total;
}

/** Everything wrong with one translation file (`name` is its file name: "ru", "pt_BR"). */
export function checkLocale(name: string, table: Messages, reference: Messages, sameAsEnglish: readonly string[] = []): LocaleProblems {
  const problems: LocaleProblems = { missing: [], extra: [], placeholders: [], plurals: [], english: [], empty: [] };
  const { plain, plural } = referenceUnits(reference);
  const categories = pluralCategories(name);
  const allowed = new Set(sameAsEnglish);

  for (const key of plain) if (!Object.hasOwn(table, key)) problems.missing.push(key);
  for (const [base, variants] of plural) {
    const want = categories.map((c) => `${base}${PLURAL_MARK}${c}`);
    const lacking = want.filter((k) => !Object.hasOwn(table, k));
    if (lacking.length === want.length) problems.missing.push(base);
    else for (const k of lacking) problems.plurals.push(k);
    const englishPlaceholders = new Set(variants.flatMap((v) => reference[v]!.match(/\{\w+\}/g) ?? []));
    // A variant may leave a value out only when its category is one number (English "#one"):
    // Russian "one" is also 21 and 31, so "this entry" would misread there.
    const general: string[] = reference[`${base}${PLURAL_MARK}other`]?.match(/\{\w+\}/g) ?? [];
    for (const k of want.filter((k) => Object.hasOwn(table, k))) {
      const used: string[] = table[k]!.match(/\{\w+\}/g) ?? [];
      const stray = used.filter((p) => !englishPlaceholders.has(p));
      const lost = singleNumber(name, k.split(PLURAL_MARK)[1]!) ? [] : general.filter((p) => !used.includes(p));
      if (stray.length > 0 || lost.length > 0) problems.placeholders.push(k);
    }
  }
  for (const key of Object.keys(table)) {
    const value = table[key]!;
    if (isPlural(key)) {
      const [base, category] = key.split(PLURAL_MARK) as [string, string];
      if (!plural.has(base) || !categories.includes(category)) problems.extra.push(key);
    } else if (!Object.hasOwn(reference, key)) problems.extra.push(key);
    else if (placeholderSet(value) !== placeholderSet(reference[key]!)) problems.placeholders.push(key);
    if (value.trim() === "") problems.empty.push(key);
    const english = isPlural(key) ? (plural.get(baseOf(key)) ?? []).map((k) => reference[k]) : [reference[key]];
    if (english.includes(value) && hasTranslatableWords(value) && !allowed.has(key) && !allowed.has(baseOf(key))) problems.english.push(key);
  }
  return problems;
}

export function isSound(problems: LocaleProblems): boolean {
  return Object.values(problems).every((list) => list.length === 0);
}
