// The "file" parser (Wings' plain text one): each line that starts with a replacement's match is
// replaced whole by its value; other lines stay, with their own line ends. The value is the
// template's line: it may itself hold line breaks (an egg writes "security:\r\n  authorization:
// enabled"), but a variable's value put into it may not (the processor refuses those), so a
// value cannot add lines. Where Wings writes every matching value one after another, the first
// match wins: a line is replaced by one line.
import type { Replacement } from "./types";

export function rewriteText(text: string, replacements: readonly Replacement[]): string {
  const lines = text.split(/(?<=\n)/);
  return lines
    .map((line) => {
      const end = /\r?\n$/.exec(line)?.[0] ?? "";
      const body = line.slice(0, line.length - end.length);
      const replacement = replacements.find((r) => r.match !== "" && body.startsWith(r.match));
      return replacement ? replacement.value + end : line;
    })
    .join("");
}
