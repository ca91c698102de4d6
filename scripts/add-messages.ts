// Merges new message keys into the locale files: `bun scripts/add-messages.ts file.json`, where the
// file is { "en": {key: text}, "de": {...}, "fr": {...} }. Keys are appended in the given order;
// an existing key is replaced. Used so several people can add keys without hand-editing JSON.
import { readFileSync, writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";

const LOCALES_DIR = join(import.meta.dir, "..", "locales");
const input = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Record<string, Record<string, string>>;
for (const [lang, messages] of Object.entries(input)) {
  const file = join(LOCALES_DIR, `${lang}.json`);
  const current = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  Object.assign(current, messages);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(current, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  console.log(`${lang}: ${Object.keys(messages).length} keys merged`);
}
