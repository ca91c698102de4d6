// How a short label that someone else wrote is shown: it may not lie about what it is. A file's
// name (a server's process names its files), a player's name (any player who joins a game server,
// its plugins, or the game's own query answer), a list entry's reason: characters that draw
// nothing or move what follows would let the writer show one thing and be another. U+202E
// (right-to-left override) shows "\u202Enimda" as "admin", a zero-width space makes "admin\u200B"
// look like the real admin, a control character or a space at an end passes for nothing. Those
// characters are shown as visible escapes; the text itself is unchanged, and every action still
// goes by it. Text written in NFC and NFD looks alike and is not escaped: both are legitimate and
// each still names its own thing.

/** A piece of a shown label: text as it is, or an escape (`\n`, `\u202E`) to be shown as one. */
export type LabelPart = { text: string; escape: false } | { text: string; escape: true };

/**
 * Characters shown escaped anywhere in a label: controls (C0, DEL, C1), format characters (bidi
 * overrides and isolates, zero-width characters, the byte-order mark, soft hyphen), line and
 * paragraph separators, lone surrogates, and other characters that draw nothing (Hangul fillers).
 * Variation selectors are kept: they only choose a glyph (emoji).
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]|(?![\uFE00-\uFE0F])\p{Default_Ignorable_Code_Point}/u;
/** Blank at either end: spaces, and U+2800 (braille pattern blank), which draws nothing but is no White_Space. */
const SPACE = /[\p{White_Space}\u2800]/u;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** A user of the rule's own characters to escape, and how (file names: bytes that are not UTF-8); null for the rest. */
export type ExtraEscape = (code: number) => string | null;

function escapeOf(char: string): string {
  if (NAMED[char]) return NAMED[char];
  const code = char.codePointAt(0)!;
  const hex = code.toString(16).toUpperCase();
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
}

/** The label in pieces, escapes apart, for a view that marks them. */
export function labelParts(label: string, extra?: ExtraEscape): LabelPart[] {
  const chars = Array.from(label);
  // Spaces at either end are escaped too: they are invisible there.
  let first = 0;
  while (first < chars.length && SPACE.test(chars[first]!)) first++;
  let last = chars.length;
  while (last > first && SPACE.test(chars[last - 1]!)) last--;
  const parts: LabelPart[] = [];
  chars.forEach((char, i) => {
    const special = extra ? extra(char.codePointAt(0)!) : null;
    const escape = special !== null || i < first || i >= last || HIDDEN.test(char);
    const text = special ?? (escape ? escapeOf(char) : char);
    const previous = parts[parts.length - 1];
    if (previous && previous.escape === escape) previous.text += text;
    else parts.push(escape ? { text, escape: true } : { text, escape: false });
  });
  return parts;
}

/** The label as plain text with its escapes (titles, messages, an `aria-label`). */
export function shownLabel(label: string, extra?: ExtraEscape): string {
  return labelParts(label, extra)
    .map((part) => part.text)
    .join("");
}

/** Whether the label is shown otherwise than it is written. */
export function labelHasEscapes(label: string, extra?: ExtraEscape): boolean {
  return labelParts(label, extra).some((part) => part.escape);
}
