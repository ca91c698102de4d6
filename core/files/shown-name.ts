// How a file's name is shown to people: a name may not lie about what it is. The server's own
// process names its files, and characters that draw nothing or move what follows would let it
// show one thing and be another: U+202E (right-to-left override) shows "evil\u202Eraj.txt" as
// "eviltxt.jar", a zero-width space makes two rows look alike, a newline or a trailing space
// passes for another name (".. " for the parent folder). Those characters, and bytes that are not
// UTF-8 (./raw-name), are shown as visible escapes; the name itself (its wire form) is unchanged,
// and every action still goes by it. Names written in NFC and NFD look alike and are not escaped:
// both are legitimate (macOS writes NFD) and each row still addresses its own file.
import { rawByte } from "./raw-name";

/** A piece of a shown name: text as it is, or an escape (`\xFF`, `\n`, `\u202E`) to be shown as one. */
export type NamePart = { text: string; escape: false } | { text: string; escape: true };

/**
 * Characters shown escaped anywhere in a name: controls (C0, DEL, C1), format characters (bidi
 * overrides and isolates, zero-width characters, the byte-order mark, soft hyphen), line and
 * paragraph separators, lone surrogates, other characters that draw nothing (Hangul fillers), and
 * the raw-byte escapes. Variation selectors are kept: they only choose a glyph (emoji).
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\uEF80-\uEFFF]|(?![\uFE00-\uFE0F])\p{Default_Ignorable_Code_Point}/u;
const SPACE = /\p{White_Space}/u;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOf(char: string): string {
  const code = char.codePointAt(0)!;
  const byte = rawByte(code);
  if (byte !== null) return `\\x${byte.toString(16).toUpperCase()}`;
  if (NAMED[char]) return NAMED[char];
  const hex = code.toString(16).toUpperCase();
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
}

/** The name in pieces, escapes apart, for a view that marks them (the file manager). */
export function nameParts(name: string): NamePart[] {
  const chars = Array.from(name);
  // Spaces at either end are escaped too: they are invisible there.
  let first = 0;
  while (first < chars.length && SPACE.test(chars[first]!)) first++;
  let last = chars.length;
  while (last > first && SPACE.test(chars[last - 1]!)) last--;
  const parts: NamePart[] = [];
  chars.forEach((char, i) => {
    const escape = i < first || i >= last || HIDDEN.test(char);
    const text = escape ? escapeOf(char) : char;
    const previous = parts[parts.length - 1];
    if (previous && previous.escape === escape) previous.text += text;
    else parts.push(escape ? { text, escape: true } : { text, escape: false });
  });
  return parts;
}

/** The name as plain text with its escapes (titles, labels, messages). */
export function shownName(name: string): string {
  return nameParts(name)
    .map((part) => part.text)
    .join("");
}

/** Whether the name is shown otherwise than it is written. */
export function nameHasEscapes(name: string): boolean {
  return nameParts(name).some((part) => part.escape);
}
