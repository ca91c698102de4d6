// The ini parser, edited line by line so comments, order and spacing stay as they were (Wings'
// go-ini rewrites the whole file). A match "Section.key" is the key in [Section] (only the first
// dot splits; "[a.b].key" names a section with dots), a match without a dot a key before any
// section. An existing key keeps its separator and spacing; a missing key is added at the end of
// its section, a missing section at the end of the file. Values are written as they are, so a
// line break in one is refused: it could start a key or a section of its own. As in Wings,
// ifValue does not apply to ini files.
import type { Replacement } from "./types";

/** Wings' split of a match into [section, key] or [key]. */
export function iniPath(match: string): [string, string] | [string] {
  const path: string[] = [];
  let depth = 0;
  let current = "";
  for (const c of match) {
    if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === "." && depth <= 0 && path.length === 0) {
      path.push(current);
      current = "";
    } else current += c;
  }
  path.push(current);
  return path as [string, string] | [string];
}

const SECTION = /^\s*\[([^\]]*)\]\s*(?:[;#].*)?$/;
const KEY = /^(\s*)([^=:;#\s][^=:]*?)(\s*[=:]\s*)(.*)$/;

interface Line {
  text: string;
  /** The section the line is in ("" before the first header). */
  section: string;
  key?: string;
}

function readLines(text: string): { lines: Line[]; newline: string } {
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  const raw = text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/);
  let section = "";
  const lines = raw.map((line): Line => {
    const header = SECTION.exec(line);
    if (header) {
      section = header[1]!.trim();
      return { text: line, section };
    }
    const key = KEY.exec(line);
    return { text: line, section, key: key ? key[2]!.trim() : undefined };
  });
  return { lines, newline };
}

function setKey(lines: Line[], section: string, key: string, value: string): void {
  const existing = lines.find((line) => line.section === section && line.key === key);
  if (existing) {
    const [, indent, name, separator] = KEY.exec(existing.text)!;
    existing.text = `${indent}${name}${separator}${value}`;
    return;
  }
  const added: Line = { text: `${key} = ${value}`, section, key };
  const inSection = lines.map((line, i) => (line.section === section ? i : -1)).filter((i) => i >= 0);
  if (inSection.length === 0 && section !== "") {
    if (lines.length > 0 && lines.at(-1)!.text.trim() !== "") lines.push({ text: "", section: lines.at(-1)!.section });
    lines.push({ text: `[${section}]`, section }, added);
    return;
  }
  // After the section's last line that is not blank (a new key before the next header's gap).
  let at = inSection.length === 0 ? 0 : inSection.at(-1)! + 1;
  while (at > 0 && lines[at - 1]!.text.trim() === "" && lines[at - 1]!.section === section && !SECTION.test(lines[at - 1]!.text)) at--;
  lines.splice(at, 0, added);
}

export function rewriteIni(text: string, replacements: readonly Replacement[]): string {
  const { lines, newline } = readLines(text);
  for (const replacement of replacements) {
    if (/[\r\n\u2028\u2029]/.test(replacement.value)) throw new Error(`the value for ${replacement.match} holds a line break, which an ini file cannot hold`);
    const path = iniPath(replacement.match);
    const [section, key] = path.length === 2 ? path : ["", path[0]];
    setKey(lines, section, key, replacement.value);
  }
  return lines.map((line) => line.text).join(newline) + newline;
}
