// A YAML file edited where its values are, rather than written anew: each value the replacements
// set (./tree-paths tells which, by path from the root) replaces the text of that one scalar, so
// every other line keeps its comments, quotes and spelling (0777, 1.20, yes, ~), which a reader
// of the whole document written back would not (Bun's writer spells 0777 as 777).
//
// It reads block style: `key: value` lines by indentation, lists as `- ` items (also at their
// key's own indentation, as BungeeCord writes them), one-line scalars. Anything else (a key that
// was missing, a flow collection, an anchor, a block scalar, a value over several lines) answers
// null, and the caller writes the document anew, as Wings does.
import { scalarText } from "./yaml-scalars";
import type { Change } from "./tree-paths";

interface Line {
  /** Offset of the line's first character in the text. */
  start: number;
  /** The line without its line end; list dashes already descended through read as spaces. */
  body: string;
}

const isContent = (line: Line) => line.body.trim() !== "" && !line.body.trimStart().startsWith("#");
const indentOf = (line: Line) => line.body.length - line.body.trimStart().length;

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (const raw of text.split("\n")) {
    lines.push({ start, body: raw.endsWith("\r") ? raw.slice(0, -1) : raw });
    start += raw.length + 1;
  }
  return lines;
}

const KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"?:,[\]{}&*!|>%@`-][^#]*?|-[^\s#][^#]*?)[ \t]*:(?=[ \t]|$)/;

function keyText(raw: string): string {
  if (raw.startsWith('"')) return JSON.parse(raw) as string;
  if (raw.startsWith("'")) return raw.slice(1, -1).replaceAll("''", "'");
  return raw;
}

/** The one-line scalar at `from` in `line` (after a key's colon or a dash): its span, or null. */
function scalarAt(line: Line, from: number): { start: number; end: number; raw: string } | null {
  let i = from;
  while (line.body[i] === " " || line.body[i] === "\t") i++;
  const rest = line.body.slice(i);
  let length: number;
  if (rest.startsWith('"')) length = /^"(?:[^"\\]|\\.)*"/.exec(rest)?.[0].length ?? -1;
  else if (rest.startsWith("'")) length = /^'(?:[^']|'')*'/.exec(rest)?.[0].length ?? -1;
  else if (rest === "" || /^[#&*!|>{[]/.test(rest)) return null;
  else length = /^(?:[^#]|(?<! )#)*/.exec(rest)![0].trimEnd().length;
  if (length <= 0) return null;
  // Only a comment may follow a quoted scalar.
  const after = rest.slice(length).trim();
  if (after !== "" && !after.startsWith("#")) return null;
  return { start: line.start + i, end: line.start + i + length, raw: rest.slice(0, length) };
}

/** The lines of the block that starts after line `at` (whose indentation is `indent`). */
function childEnd(lines: Line[], at: number, indent: number, to: number): number {
  let end = at + 1;
  while (end < to) {
    const line = lines[end]!;
    if (isContent(line) && (indentOf(line) < indent || (indentOf(line) === indent && !/^\s*- |^\s*-$/.test(line.body)))) break;
    end++;
  }
  return end;
}

/** The span of the scalar at `path` within lines [from, to), or null when it is not a one-line scalar found so. */
function find(lines: Line[], from: number, to: number, path: ReadonlyArray<string | number>): { start: number; end: number; raw: string } | null {
  let first = from;
  while (first < to && (!isContent(lines[first]!) || /^(---|\.\.\.)(\s|$)/.test(lines[first]!.body))) first++;
  if (first >= to) return null;
  const indent = indentOf(lines[first]!);
  const [segment, ...rest] = path;
  if (typeof segment === "number") {
    let count = -1;
    for (let i = first; i < to; i++) {
      const line = lines[i]!;
      if (!isContent(line) || indentOf(line) > indent) continue;
      if (indentOf(line) < indent || !/^\s*-(\s|$)/.test(line.body)) return null;
      if (++count !== segment) continue;
      if (rest.length === 0) return scalarAt(line, indent + 1);
      // The item's content, read as if the dash were a space.
      const masked = [...lines];
      masked[i] = { start: line.start, body: `${line.body.slice(0, indent)} ${line.body.slice(indent + 1)}` };
      let end = i + 1;
      while (end < to && (!isContent(lines[end]!) || indentOf(lines[end]!) > indent)) end++;
      return find(masked, i, end, rest);
    }
    return null;
  }
  for (let i = first; i < to; i++) {
    const line = lines[i]!;
    if (!isContent(line) || indentOf(line) !== indent) continue;
    const key = KEY.exec(line.body.slice(indent));
    if (!key || keyText(key[1]!) !== segment) continue;
    const valueFrom = indent + key[0].length;
    if (rest.length === 0) return scalarAt(line, valueFrom);
    // A nested block must follow: nothing but a comment after the colon.
    const after = line.body.slice(valueFrom).trim();
    if (after !== "" && !after.startsWith("#")) return null;
    return find(lines, i + 1, childEnd(lines, i, indent, to), rest);
  }
  return null;
}

/** `text` with each change written at its scalar, or null when one cannot be (the caller writes the document anew). */
export function editYamlInPlace(text: string, changes: readonly Change[]): string | null {
  let edited = text;
  for (const change of changes) {
    if (!change.replacedScalar) return null;
    const lines = linesOf(edited);
    const span = find(lines, 0, lines.length, change.path);
    if (!span) return null;
    edited = edited.slice(0, span.start) + scalarText(change.value, span.raw) + edited.slice(span.end);
  }
  return edited;
}
