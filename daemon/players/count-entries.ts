// How many entries the text of a JSON list holds, counted in one pass over its characters without
// building any of them, and given up as soon as the count passes `stopAfter`: a list file of 4 MiB
// of tiny entries ({"name":"a"}, 300,000 of them) is refused before JSON.parse makes an object of
// each. For valid JSON the count is exact (an entry begins at each value one level deep); for
// anything else JSON.parse refuses the text afterwards, so the count only has to bound it.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

export function countListEntries(text: string, stopAfter: number): number {
  let depth = 0;
  let inString = false;
  let awaitingEntry = false;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (isSpace(c)) continue;
    if (depth === 1 && awaitingEntry && c !== CLOSE_LIST) {
      awaitingEntry = false;
      if (++count > stopAfter) return count;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_LIST || c === OPEN_OBJECT) awaitingEntry = ++depth === 1;
    else if (c === CLOSE_LIST || c === CLOSE_OBJECT) depth--;
    else if (c === COMMA && depth === 1) awaitingEntry = true;
  }
  return count;
}

/**
 * Whether values in the JSON text nest deeper than `maxDepth` (strings skipped): a list of one
 * entry nested two million deep is 4 MB, parsed six times slower than real entries and beyond
 * JSON.stringify's stack when written back. Minecraft's files nest three levels at most.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_LIST || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_LIST || c === CLOSE_OBJECT) depth--;
  }
  return false;
}
