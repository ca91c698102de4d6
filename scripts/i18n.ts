// Translators' tool (docs/translations.md):
//   bun scripts/i18n.ts todo <name> [size]     the English messages <name> still lacks, the first [size] (default 100)
//   bun scripts/i18n.ts merge <name> <file...>  adds translated messages (JSON files) to locales/<name>.json
//   bun scripts/i18n.ts check <name>            what is wrong with locales/<name>.json (exit 1 if anything)
//   bun scripts/i18n.ts sample <name> [n]       n translated messages spread over the file (default 50), for a
//                                                reviewer to back-translate without the English in view
//   bun scripts/i18n.ts review <name> back.json  writes locales/reviews/<name>.md: each sampled message, the reviewer's
//                                                back-translation ({key: text} or {key: [text, what was corrected]}) and the English
// <name> is a language ("ja") or an exact locale ("pt_BR"). Merging keeps en.json's order, writes
// through a temporary file, and refuses keys en.json does not have. An unfinished translation lives
// in locales/drafts/<name>.json (not shipped) until it is whole.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PLURAL_MARK, type Messages } from "../core/i18n/translate";
import { REFERENCE } from "../locales";
import { checkLocale, hasTranslatableWords, isSound, pluralCategories, translatedShare } from "../locales/check";

const DIR = join(import.meta.dir, "..", "locales");
const [command, name = "", ...rest] = process.argv.slice(2);
if (!/^[a-z]{2}(_[A-Z]{2})?$/.test(name)) throw new Error("name a locale file: ja, pt_BR…");
const shipped = join(DIR, `${name}.json`);
const file = existsSync(shipped) ? shipped : join(DIR, "drafts", `${name}.json`);
const read = (path: string): Messages => (existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Messages) : {});
const sameFile = join(DIR, "same", `${name}.json`);

function ordered(table: Messages): Messages {
  const out: Messages = {};
  const categories = pluralCategories(name);
  const seen = new Set<string>();
  for (const key of Object.keys(REFERENCE)) {
    const base = key.split(PLURAL_MARK)[0]!;
    if (key.includes(PLURAL_MARK)) {
      if (seen.has(base)) continue;
      seen.add(base);
      for (const c of categories) if (Object.hasOwn(table, `${base}${PLURAL_MARK}${c}`)) out[`${base}${PLURAL_MARK}${c}`] = table[`${base}${PLURAL_MARK}${c}`]!;
    } else if (Object.hasOwn(table, key)) out[key] = table[key]!;
  }
  return out;
}

if (command === "todo") {
  const table = read(file);
  const size = Number(rest[0] ?? 100);
  const todo: Messages = {};
  for (const [key, text] of Object.entries(REFERENCE)) {
    if (Object.keys(todo).length >= size) break;
    const base = key.split(PLURAL_MARK)[0]!;
    if (key.includes(PLURAL_MARK) ? !Object.hasOwn(table, `${base}${PLURAL_MARK}other`) : !Object.hasOwn(table, key)) todo[key] = text;
  }
  console.log(`// ${name}: plural categories ${pluralCategories(name).join(", ")} (write key#<category> for each)`);
  console.log(JSON.stringify(todo, null, 2));
} else if (command === "merge") {
  const table = read(file);
  for (const part of rest) {
    const add = JSON.parse(readFileSync(part, "utf8")) as Messages;
    for (const [key, text] of Object.entries(add)) {
      const base = key.split(PLURAL_MARK)[0]!;
      const known = Object.hasOwn(REFERENCE, key) || Object.hasOwn(REFERENCE, `${base}${PLURAL_MARK}other`);
      if (!known || typeof text !== "string") throw new Error(`${part}: ${key} is not a message of en.json`);
      table[key] = text;
    }
  }
  writeFileSync(`${file}.tmp`, `${JSON.stringify(ordered(table), null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  console.log(`${name}: ${Object.keys(table).length} messages`);
} else if (command === "check") {
  const problems = checkLocale(name, read(file), REFERENCE, existsSync(sameFile) ? (JSON.parse(readFileSync(sameFile, "utf8")) as string[]) : []);
  for (const [kind, keys] of Object.entries(problems)) if (keys.length) console.log(`${kind} (${keys.length}): ${keys.slice(0, 40).join(" ")}${keys.length > 40 ? " …" : ""}`);
  if (!isSound(problems)) {
    console.log(`${name}: ${Math.floor(translatedShare(REFERENCE, read(file)) * 100)}% translated`);
    process.exit(1);
  }
  console.log(`${name}: complete`);
} else if (command === "sample") {
  const table = read(file);
  const keys = Object.keys(table).filter((k) => hasTranslatableWords(REFERENCE[k] ?? REFERENCE[`${k.split(PLURAL_MARK)[0]}${PLURAL_MARK}other`] ?? ""));
  const n = Math.min(Number(rest[0] ?? 50), keys.length);
  const sample: Messages = {};
  for (let i = 0; i < n; i++) sample[keys[Math.floor((i * keys.length) / n)]!] = table[keys[Math.floor((i * keys.length) / n)]!]!;
  console.log(JSON.stringify(sample, null, 2));
} else if (command === "review") {
  const table = read(file);
  const back = JSON.parse(readFileSync(rest[0]!, "utf8")) as Record<string, string | [string, string]>;
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const rows = Object.entries(back).map(([key, said]) => {
    const [text, note] = Array.isArray(said) ? said : [said, ""];
    const english = REFERENCE[key] ?? REFERENCE[`${key.split(PLURAL_MARK)[0]}${PLURAL_MARK}other`] ?? "";
    return `| \`${key}\` | ${cell(table[key] ?? "")} | ${cell(text)} | ${cell(english)} | ${note ? cell(note) : "same meaning"} |`;
  });
  const corrected = Object.values(back).filter(Array.isArray).length;
  const text = [`# Review of ${name}: ${rows.length} messages back-translated by a second reader`, "", `Corrected: ${corrected}.`, "", "| Key | Translation | Back-translation | English | Verdict |", "|---|---|---|---|---|", ...rows, ""].join("\n");
  writeFileSync(join(DIR, "reviews", `${name}.md`), text);
  console.log(`${name}: ${rows.length} reviewed, ${corrected} corrected`);
} else {
  throw new Error("commands: todo, merge, check, sample, review");
}
