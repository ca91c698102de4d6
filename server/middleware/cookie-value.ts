// One cookie's value from a Cookie header, read as Hono's parser reads it (hono/utils/cookie's
// `parse(header, name)[name]`: names and values trimmed of spaces and tabs, one pair of quotes
// taken off, a value outside the cookie-octet set skipped, percent escapes decoded, the first
// acceptable pair winning) without building the map of every cookie: every request reads the
// session cookie and the locale's, and Hono's parser cost about a microsecond a request, a tenth
// of the public config's time. cookie-value.test.ts compares the two on awkward headers.
import { tryDecodeURIComponent } from "hono/utils/url";

/** Hono's validCookieValueRegEx. */
const VALID_VALUE = /^[ !#-:<-[\]-~]*$/;

/** Hono's trimCookieWhitespace: spaces and tabs only. */
function trimmed(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start++;
  while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** The value of one "name=value" pair if it is `name`'s and acceptable. */
function valueOfPair(pair: string, name: string): string | undefined {
  const eq = pair.indexOf("=");
  if (eq === -1 || trimmed(pair.slice(0, eq)) !== name) return undefined;
  let value = trimmed(pair.slice(eq + 1));
  if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  return VALID_VALUE.test(value) ? tryDecodeURIComponent(value) : undefined;
}

/** `name` (a valid cookie name, a constant of ours) as the header carries it, or undefined. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const at = header.indexOf(name);
  if (at === -1) return undefined;
  // Written once: only the pair around that one place can be named `name`.
  if (at === header.lastIndexOf(name)) {
    const end = header.indexOf(";", at);
    return valueOfPair(header.slice(header.lastIndexOf(";", at) + 1, end === -1 ? header.length : end), name);
  }
  for (const pair of header.split(";")) {
    const value = valueOfPair(pair, name);
    if (value !== undefined) return value;
  }
  return undefined;
}
