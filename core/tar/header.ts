// The fields of a ustar header block, as both of Kiln's tar readers take them: the whole-archive
// reader (./read) and the streaming one the panel uses for a GitHub repository's archive
// (server/services/templates/github-archive). No I/O, runs in the browser.
export const BLOCK = 512;
const decoder = new TextDecoder();

/** A text field: up to its first NUL, or the whole field when it has none (a name of exactly 100 bytes). */
export function headerText(block: Uint8Array, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return decoder.decode(end === -1 ? field : field.subarray(0, end));
}

/** A number field, written in octal digits (blank reads as 0). */
export function headerOctal(block: Uint8Array, offset: number, length: number): number {
  const text = headerText(block, offset, length).trim();
  return text === "" ? 0 : parseInt(text, 8);
}

/** The entry's size in bytes (its data follows in whole blocks). */
export const headerSize = (header: Uint8Array) => headerOctal(header, 124, 12);

/** The entry's type flag: "0" or NUL for a regular file, "x" a pax record, "L" a GNU long name, … */
export const headerType = (header: Uint8Array) => String.fromCharCode(header[156] ?? 0x30);

/** The entry's path: ustar's prefix field, when set, joined to its name field. */
export function headerName(header: Uint8Array): string {
  const prefix = headerText(header, 345, 155);
  return (prefix ? `${prefix}/` : "") + headerText(header, 0, 100);
}
