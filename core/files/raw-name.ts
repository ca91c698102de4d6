// A file's name on the wire, whatever bytes the kernel holds. A Linux name is any bytes but "/"
// and NUL, and a server's own process writes what it likes; JSON, URLs and forms carry text.
// Decoding bytes that are not UTF-8 as UTF-8 gives U+FFFD, which no path reaches again: such a
// file was left out of every listing, so a plugin could hide one from the owner (a disk filler, a
// planted script) that the file manager could neither show, download nor delete.
//
// The wire form (MirBSD's OPTU-8 mapping): a name is its UTF-8 text, except that each byte which
// is not part of valid UTF-8 is the character U+EF00 + byte (U+EF80..U+EFFF, in the Private Use
// Area). A valid name that itself holds one of those characters has the bytes of that character
// written the same way, so the form is lossless both ways: `bytesFromName(nameFromBytes(b))` is `b`
// for every name. Only bytes 0x80..0xFF are ever escaped, so an escape can never spell "/", "."
// or NUL: the jail's checks on the text hold for the bytes it stands for. Names that are UTF-8
// (all names the panel makes) are their own wire form, as before.

/** The first and last characters that stand for a raw byte (0x80 and 0xFF). */
const ESCAPE_FIRST = 0xef80;
const ESCAPE_LAST = 0xefff;
const ESCAPED = /[\uEF80-\uEFFF]/;
/** What a non-fatal decoder puts for bytes that are not UTF-8, and the escape range: names holding neither are plain. */
const NOT_PLAIN = /[\uFFFD\uEF80-\uEFFF]/;

const decoder = new TextDecoder("utf-8");
const strict = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/**
 * Whether `name` (a wire name) is spelled with escapes: it stands for bytes that are not UTF-8
 * text, or for text holding a character of the escapes' own range (U+EF80 is three escapes).
 */
export function hasRawBytes(name: string): boolean {
  return ESCAPED.test(name);
}

/**
 * Whether the bytes a wire name stands for are UTF-8 text. Not the same as `!hasRawBytes`: a name
 * whose text holds U+EF80..U+EFFF (a file the server's process may name so) is escaped on the wire
 * and is text all the same, and is what `textFromName` gives back.
 */
export function isText(name: string): boolean {
  if (!ESCAPED.test(name)) return true;
  try {
    strict.decode(bytesFromName(name));
    return true;
  } catch {
    return false;
  }
}

/** The byte an escape character stands for, or null for any other character. */
export function rawByte(code: number): number | null {
  return code >= ESCAPE_FIRST && code <= ESCAPE_LAST ? code - 0xef00 : null;
}

/** The wire form of a name (or path) the kernel gave as bytes. */
export function nameFromBytes(bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  if (!NOT_PLAIN.test(text)) return text;
  let out = "";
  for (let at = 0; at < bytes.length; ) {
    const length = validSequence(bytes, at);
    const code = length ? codePoint(bytes, at, length) : -1;
    if (length && rawByte(code) === null) {
      out += String.fromCodePoint(code);
      at += length;
    } else {
      out += String.fromCharCode(0xef00 + bytes[at]!); // this byte alone; what follows is looked at afresh
      at += 1;
    }
  }
  return out;
}

/**
 * The wire form of a name written as text (a template's pattern, a path restic lists as text):
 * the name its UTF-8 bytes are. Only characters of the escapes' own range change (U+EF80 is the
 * bytes EE BE 80, three escapes), so such text is compared with wire names as the file it names.
 */
export function nameFromText(text: string): string {
  return NOT_PLAIN.test(text) ? nameFromBytes(encoder.encode(text)) : text;
}

/**
 * The one spelling of the bytes a wire name stands for. Escapes can also spell bytes that are
 * UTF-8 text ("\uEFC3\uEFA9" is the bytes of "é"): such a spelling names the same file, and
 * checks by name (the file denylist) must see it as that name, so every path is spelled so first.
 */
export function canonicalName(name: string): string {
  // A lone surrogate is written as U+FFFD's bytes (TextEncoder): "x\uD800" is the file "x\uFFFD".
  const text = name.toWellFormed();
  return ESCAPED.test(text) ? nameFromBytes(bytesFromName(text)) : text;
}

/**
 * The name as text, as a tool that decodes bytes one by one writes it (Go's JSON, restic's
 * listing): each byte that is not UTF-8 as `raw(byte)`, every valid sequence as its character,
 * one of the escapes' own range included (U+EF80 is a name's text there, not a raw byte).
 */
export function textFromName(name: string, raw: (byte: number) => string): string {
  if (!ESCAPED.test(name)) return name;
  const bytes = bytesFromName(name);
  let out = "";
  for (let at = 0; at < bytes.length; ) {
    const length = validSequence(bytes, at);
    if (length) out += String.fromCodePoint(codePoint(bytes, at, length));
    else out += raw(bytes[at]!);
    at += length || 1;
  }
  return out;
}

/** The exact bytes a wire name (or path) stands for. */
export function bytesFromName(name: string): Uint8Array {
  if (!ESCAPED.test(name)) return encoder.encode(name);
  const parts: number[] = [];
  for (const char of name) {
    const byte = rawByte(char.codePointAt(0)!);
    if (byte !== null) parts.push(byte);
    else parts.push(...encoder.encode(char));
  }
  return Uint8Array.from(parts);
}

/** The length of the well-formed UTF-8 sequence at `at` (Unicode's table 3-7: no overlong forms, no surrogates), or 0. */
function validSequence(bytes: Uint8Array, at: number): number {
  const first = bytes[at]!;
  if (first < 0x80) return 1;
  const second = bytes[at + 1] ?? 0;
  const continuation = (b: number | undefined) => b !== undefined && b >= 0x80 && b <= 0xbf;
  if (first >= 0xc2 && first <= 0xdf) return continuation(second) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    const low = first === 0xe0 ? 0xa0 : 0x80;
    const high = first === 0xed ? 0x9f : 0xbf;
    return second >= low && second <= high && continuation(bytes[at + 2]) ? 3 : 0;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    const low = first === 0xf0 ? 0x90 : 0x80;
    const high = first === 0xf4 ? 0x8f : 0xbf;
    return second >= low && second <= high && continuation(bytes[at + 2]) && continuation(bytes[at + 3]) ? 4 : 0;
  }
  return 0;
}

function codePoint(bytes: Uint8Array, at: number, length: number): number {
  if (length === 1) return bytes[at]!;
  let code = bytes[at]! & (0xff >> (length + 1));
  for (let i = 1; i < length; i++) code = (code << 6) | (bytes[at + i]! & 0x3f);
  return code;
}
