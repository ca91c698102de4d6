// en.json is the reference: every key the code uses exists there, every error code has a message,
// no locale carries a key en.json lacks, and German and French are complete.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { REFERENCE, TRANSLATIONS } from ".";
import { ERROR_CODES } from "../core/errors";
import { LOCALES } from "../core/i18n/locales";
import { isScope } from "../core/scopes";

const ROOT = join(import.meta.dir, "..");
const PREFIXES = Object.keys(REFERENCE).map((k) => k.split(".")[0]!);
const KEY_SHAPE = /["'`]((?:[a-z][a-zA-Z]*)\.[a-zA-Z0-9.]+)["'`]/g;
/** Any literal passed to the translator, whatever its prefix. */
const T_CALL = /\bt\(\s*["'`]([a-zA-Z][\w]*\.[\w.]+)["'`]/g;

async function keysUsedInCode(): Promise<Map<string, string>> {
  const used = new Map<string, string>();
  for (const dir of ["server", "views", "islands", "core"]) {
    for await (const file of new Bun.Glob("**/*.{ts,tsx}").scan({ cwd: join(ROOT, dir) })) {
      if (/\.test\.tsx?$/.test(file)) continue; // tests name files and keys of their own
      const text = await Bun.file(join(ROOT, dir, file)).text();
      for (const [, key] of text.matchAll(T_CALL)) used.set(key!, `${dir}/${file}`);
      for (const [, key] of text.matchAll(KEY_SHAPE)) {
        if (!PREFIXES.includes(key!.split(".")[0]!) || key!.endsWith(".")) continue; // not a message key, or a prefix
        if (/\.(ts|tsx|js|json|css|tar|sql)$/.test(key!) || isScope(key!)) continue; // a file name or a scope
        used.set(key!, `${dir}/${file}`);
      }
    }
  }
  return used;
}

const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort().join(",");

describe("locales", () => {
  test("every message key used in code exists in en.json", async () => {
    const used = await keysUsedInCode();
    expect(used.size).toBeGreaterThan(40);
    const missing = [...used].filter(([key]) => !(key in REFERENCE)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  test("every error code has a message", () => {
    expect(ERROR_CODES.filter((code) => !(`errors.${code}` in REFERENCE))).toEqual([]);
  });

  test("no locale holds a key en.json lacks, and placeholders match", () => {
    for (const [name, table] of Object.entries(TRANSLATIONS)) {
      expect({ name, extra: Object.keys(table).filter((k) => !(k in REFERENCE)) }).toEqual({ name, extra: [] });
      const wrong = Object.keys(table).filter((k) => k in REFERENCE && placeholders(table[k]!) !== placeholders(REFERENCE[k]!));
      expect({ name, wrong }).toEqual({ name, wrong: [] });
    }
  });

  test("German and French are complete", () => {
    for (const name of ["de", "fr"]) {
      expect({ name, missing: Object.keys(REFERENCE).filter((k) => !(k in TRANSLATIONS[name]!)) }).toEqual({ name, missing: [] });
    }
  });

  test("translation files are named after shipped languages or locales", () => {
    const langs = new Set(LOCALES.map((l) => l.split("_")[0]));
    for (const name of Object.keys(TRANSLATIONS)) expect(langs.has(name) || (LOCALES as readonly string[]).includes(name)).toBe(true);
  });
});
