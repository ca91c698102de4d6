// A single path of a backup (a wire name, core/files/raw-name) as restic is told and tells of it.
// A server's process may name a file with a line break or with bytes that are not UTF-8, and its
// owner must be able to restore it exactly. Arguments reach restic as text here (Bun passes them
// so), so such bytes cannot be named; and `restic ls --json` writes each such byte as U+FFFD, as
// Go's JSON does. What restic 0.14 takes, tried on a real repository: in an --include pattern the
// class `[\uFFFD]` matches one byte that is not UTF-8 (Go's filepath.Match compares a class with
// the rune decoded there, RuneError for such a byte), while a line break is an ordinary character
// of a pattern. So the pattern picks the path and the names that differ from it only in such
// bytes, exactly what the listing calls the path; the entry is then taken by its exact bytes from
// the staging folder (the others are removed with it), and judged (owner, denylist, size) as the
// listing names it, which covers all it may have brought along.
import { textFromName } from "../../core/files/raw-name";
import { globEscape } from "./around-backup";

/**
 * The path as `restic ls --json` lists it: each byte that is not UTF-8 as U+FFFD, and a character
 * of the escapes' own range (U+EF80..U+EFFF, three escapes on the wire) as that character, as
 * restic lists any text.
 */
export function listedPath(path: string): string {
  return textFromName(path, () => "\uFFFD");
}

/**
 * restic's --include pattern for the path: glob characters escaped, each byte that is not UTF-8
 * as a class matching one such byte. A U+FFFD the name holds as text is such a class too: the
 * listing cannot tell it from such a byte, and the judgement covers both.
 */
export function includePattern(path: string): string {
  return `/${globEscape(listedPath(path)).replaceAll("\uFFFD", "[\uFFFD]")}`;
}
