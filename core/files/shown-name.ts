// How a file's name is shown to people: the rule of every untrusted label (core/text/shown-label),
// since the server's own process names its files ("evil\u202Eraj.txt" would show as
// "eviltxt.jar", a newline or a trailing space pass for another name, ".. " for the parent
// folder), plus the bytes that are not UTF-8 (./raw-name), shown as `\xFF`. The name itself (its
// wire form) is unchanged, and every action still goes by it.
import { labelHasEscapes, shownLabel, type ExtraEscape } from "../text/shown-label";
import { rawByte } from "./raw-name";

/** A file name's own escapes besides a label's: a byte that is not UTF-8 as `\xFF`. */
export const rawByteEscape: ExtraEscape = (code) => {
  const byte = rawByte(code);
  return byte === null ? null : `\\x${byte.toString(16).toUpperCase()}`;
};

/** The name as plain text with its escapes (titles, labels, messages). */
export function shownName(name: string): string {
  return shownLabel(name, rawByteEscape);
}

/** Whether the name is shown otherwise than it is written. */
export function nameHasEscapes(name: string): boolean {
  return labelHasEscapes(name, rawByteEscape);
}
