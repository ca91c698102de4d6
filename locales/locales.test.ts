// en.json is the reference: every key the code uses exists there, every error code has a message,
// and every translation file is whole and sound (./check).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { REFERENCE, TRANSLATION_FILES, translation } from ".";
import { checkLocale } from "./check";
import { ERROR_CODES } from "../core/errors";
import { LOCALES } from "../core/i18n/locales";
import { isScope } from "../core/scopes";
import { isEventName } from "../core/activity";

const ROOT = join(import.meta.dir, "..");
const PREFIXES = Object.keys(REFERENCE).map((k) => k.split(".")[0]!);
const KEY_SHAPE = /["'`]((?:[a-z][a-zA-Z]*)\.[a-zA-Z0-9.]+)["'`]/g;
/** Any literal passed to the translator, whatever its prefix. */
const T_CALL = /\bt\(\s*["'`]([a-zA-Z][\w]*\.[\w.]+)["'`]/g;

async function keysUsedInCode(): Promise<Map<string, string>> {
  const used = new Map<string, string>();
  for (const dir of ["server", "views", "islands", "core"]) {
    for await (const file of new Bun.Glob("**/*.{ts,tsx}").scan({ cwd: join(ROOT, dir) })) {
      // Tests and their fixtures name files and keys of their own.
      if (/\.test\.tsx?$|-test-fixture\.tsx?$/.test(file)) continue;
      const text = await Bun.file(join(ROOT, dir, file)).text();
      for (const [, key] of text.matchAll(T_CALL)) used.set(key!, `${dir}/${file}`);
      for (const [, key] of text.matchAll(KEY_SHAPE)) {
        if (!PREFIXES.includes(key!.split(".")[0]!) || key!.endsWith(".")) continue; // not a message key, or a prefix
        if (/\.(ts|tsx|js|json|css|tar|sql)$/.test(key!) || isScope(key!) || isEventName(key!)) continue; // a file name, a scope or an activity event
        used.set(key!, `${dir}/${file}`);
      }
    }
  }
  return used;
}

const sameAsEnglish = (name: string): string[] => {
  const file = join(ROOT, "locales", "same", `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as string[]) : [];
};

describe("locales", () => {
  test("every message key used in code exists in en.json", async () => {
    const used = await keysUsedInCode();
    expect(used.size).toBeGreaterThan(40);
    const missing = [...used].filter(([key]) => !(key in REFERENCE) && !(`${key}#other` in REFERENCE)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  test("every error code has a message", () => {
    expect(ERROR_CODES.filter((code) => !(`errors.${code}` in REFERENCE) && !(`errors.${code}#other` in REFERENCE))).toEqual([]);
  });

  test("every translation file is whole: keys, placeholders, plural categories, no English left", () => {
    for (const name of Object.keys(TRANSLATION_FILES)) {
      const problems = checkLocale(name, translation(name), REFERENCE, sameAsEnglish(name));
      expect({ name, ...problems }).toEqual({ name, missing: [], extra: [], placeholders: [], plurals: [], english: [], empty: [] });
    }
  });

  test("a plural variant may leave its number out only where its category is that one number", () => {
    const reference = { "n#one": "This entry goes", "n#other": "These {count} entries go" };
    // Russian "one" is 1, 21, 31…: "this entry" would be wrong for 21.
    const ru = { "n#one": "Этот элемент", "n#few": "{count} элемента", "n#many": "{count} элементов", "n#other": "{count} элемента" };
    expect(checkLocale("ru", ru, reference).placeholders).toEqual(["n#one"]);
    expect(checkLocale("ru", { ...ru, "n#one": "{count} элемент" }, reference).placeholders).toEqual([]);
    // Arabic "one" is 1 only: it may say it in words.
    const ar = { "n#zero": "لا شيء", "n#one": "عنصر واحد", "n#two": "عنصران", "n#few": "{count} عناصر", "n#many": "{count} عنصرًا", "n#other": "{count} عنصر" };
    expect(checkLocale("ar", ar, reference, ["n"]).placeholders).toEqual([]);
  });

  test("an allow-list names only keys whose value really is the English one", () => {
    for (const name of Object.keys(TRANSLATION_FILES)) {
      const table = translation(name);
      const stale = sameAsEnglish(name).filter((k) => table[k] !== REFERENCE[k] && table[`${k}#other`] !== REFERENCE[`${k}#other`]);
      expect({ name, stale }).toEqual({ name, stale: [] });
    }
  });

  test("a draft is not also shipped", () => {
    const folder = join(ROOT, "locales", "drafts");
    const drafts = existsSync(folder) ? [...new Bun.Glob("*.json").scanSync({ cwd: folder })].map((f) => f.replace(/\.json$/, "")) : [];
    expect(drafts.filter((name) => Object.hasOwn(TRANSLATION_FILES, name))).toEqual([]);
  });

  test("translation files are named after shipped languages or locales", () => {
    const langs = new Set(LOCALES.map((l) => l.split("_")[0]));
    for (const name of Object.keys(TRANSLATION_FILES)) expect(langs.has(name) || (LOCALES as readonly string[]).includes(name)).toBe(true);
  });
});
