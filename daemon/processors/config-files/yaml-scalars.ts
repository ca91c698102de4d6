// How a value is written as one YAML scalar so that it reads back as the type it has, by YAML 1.1
// readers (SnakeYAML: Bukkit, Paper, BungeeCord, whose `yes`, `on`, `0777`, `12:30` and
// `2001-12-14` are a boolean, an octal, a sexagesimal number and a date) and YAML 1.2 readers
// alike. A string either could read as something else is quoted; a value that replaces a plain
// scalar of the same kind (a number for a number, yes for on) is written plain, as it was.

const KINDS: Array<[kind: string, shape: RegExp]> = [
  ["bool", /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/],
  ["null", /^(?:~|null|Null|NULL)?$/],
  // 1.1: binary, octal (leading 0), decimal, hexadecimal, sexagesimal, with _ anywhere; 1.2: 0o and 0x.
  ["int", /^[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])*)$/],
  ["float", /^[-+]?(?:(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[0-9][0-9_]*[eE][-+]?[0-9]+|[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|\.(?:inf|Inf|INF))$|^\.(?:nan|NaN|NAN)$/],
  ["time", /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?$/],
  // The merge key and 1.1's value key.
  ["other", /^(?:<<|=)$/],
];

/** What a plain scalar reads as under YAML 1.1 or 1.2: "string" when neither reads it as anything else. */
export function plainKind(text: string): string {
  return KINDS.find(([, shape]) => shape.test(text))?.[0] ?? "string";
}

/** Whether `text` can be written without quotes and still read back as this string. */
function safePlain(text: string): boolean {
  if (plainKind(text) !== "string") return false;
  if (text !== text.trim() || /[\u0000-\u001f\u007f\u0085\u2028\u2029]/.test(text)) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(text)) return false;
  return !/: |:$| #/.test(text);
}

const doubleQuoted = (text: string) => JSON.stringify(text);

/**
 * `value` as scalar text, in place of `old` (the scalar's text in the file as it was: its quotes
 * kept for a string; a plain one of the same kind as the value stays plain).
 */
export function scalarText(value: string | number | boolean, old: string): string {
  const text = String(value);
  if (typeof value !== "string") return text;
  if (old.startsWith("'") && !/[\u0000-\u001f\u007f]/.test(text)) return `'${text.replaceAll("'", "''")}'`;
  if (old.startsWith('"')) return doubleQuoted(text);
  const kind = plainKind(old);
  if (kind !== "string" && kind !== "null" && plainKind(text) === kind) return text;
  return safePlain(text) ? text : doubleQuoted(text);
}
