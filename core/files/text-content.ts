// Whether a file's bytes can be edited as text without changing a byte the user did not touch
// (an 8 MB binary saved from the editor once came back as 14.5 MB of replacement
// characters). Only UTF-8 decodes and encodes back to the very same bytes, so anything else is
// refused before the editor opens; a NUL byte marks a binary file even when it decodes. A
// byte-order mark is kept as text (ignoreBOM), so it is written back too. The editor joins lines
// with one separator, so a file must use one kind of line ending throughout to be edited; with
// mixed endings it is shown read-only.

export type TextRefusal = "binary" | "notUtf8";

export type TextContent =
  | { ok: true; text: string; lineSeparator: "\n" | "\r\n"; mixedLineEndings: boolean }
  | { ok: false; refusal: TextRefusal };

export function textContent(bytes: Uint8Array): TextContent {
  if (bytes.includes(0)) return { ok: false, refusal: "binary" };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, refusal: "notUtf8" };
  }
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const cr = (text.match(/\r/g) ?? []).length - crlf;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  const lineSeparator = crlf > 0 && lf === 0 ? "\r\n" : "\n";
  return { ok: true, text, lineSeparator, mixedLineEndings: cr > 0 || (crlf > 0 && lf > 0) };
}
