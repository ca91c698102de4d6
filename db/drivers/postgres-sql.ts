// Statements drizzle writes in SQLite's dialect, said in PostgreSQL's. The schema stores the same
// values in both (integers for booleans and times, text for JSON), so only the spelling differs:
// positional "?" parameters become "$n", LIKE becomes ILIKE because SQLite's LIKE ignores ASCII
// case and every search here relies on that, and an upsert's conflict target names its columns
// without their table (SQLite accepts "t"."c" there, PostgreSQL only "c").
const translated = new Map<string, string>();
const KEEP = 5_000;

export function toPostgres(sql: string): string {
  let out = translated.get(sql);
  if (out !== undefined) return out;
  out = translate(sql).replace(/on conflict \(([^)]*)\)/g, (_, columns: string) => `on conflict (${columns.replace(/"[^"]+"\./g, "")})`);
  if (translated.size >= KEEP) translated.clear();
  translated.set(sql, out);
  return out;
}

function translate(sql: string): string {
  let out = "";
  let n = 0;
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (quote) {
      out += ch;
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    if (ch === "?") {
      out += `$${++n}`;
      continue;
    }
    if ((ch === "l" || ch === "L") && /^like\b/i.test(sql.slice(i, i + 5)) && /\s/.test(sql[i - 1] ?? "")) {
      out += "ilike";
      i += 3;
      continue;
    }
    out += ch;
  }
  return out;
}
