// Two look-around forms Kiln's own templates wrote in alterfile searches before patterns ran on
// RE2 (core/patterns), which has no look-around. Servers made from those templates keep the steps
// in their definitions, so the node still reads them, each as an equivalent that RE2 runs in
// linear time:
// - `^(?![\s\S]*X)` (X is nowhere in the file): the replacement is put at the start of the file
//   when X is not found ("add the key when it is missing");
// - `(?<=B)Y` (Y after B): B is matched and written back in front of the replacement.
// Any other look-around stays refused.
import { compilePattern } from "../../core/patterns";

const NOWHERE = /^\^\(\?!\[\\s\\S\]\*([\s\S]+)\)$/;
// A look-behind holding no group of its own (escapes and classes allowed), then the rest.
const BEHIND = /^\(\?<=((?:[^()\\[]|\\.|\[(?:[^\]\\]|\\.)*\])+)\)([\s\S]*)$/;

/** `text` with the legacy search replaced, or null when `search` is neither form. */
export function legacyAlterfile(search: string, replace: string, text: string): string | null {
  const nowhere = NOWHERE.exec(search);
  if (nowhere) return compilePattern(nowhere[1]!).test(text) ? text : compilePattern("^").replaceAll(text, replace);
  const behind = BEHIND.exec(search);
  // The replacement may not name groups: the look-behind's own would shift their numbers.
  if (behind && !/\$[1-9<]/.test(replace)) return compilePattern(`(?P<before>${behind[1]})${behind[2]}`).replaceAll(text, `$<before>${replace}`);
  return null;
}
