// Which bytes of a file a download answers, from its Range header (RFC 9110 §14): a download cut
// short on a slow link is resumed from where it stopped (browsers, curl -C, download managers)
// instead of starting again. One range is served; several, a malformed header, a unit other
// than bytes, or an If-Range naming another version of the file (neither its Last-Modified nor its
// ETag) are answered with the whole file (a server may ignore Range). Parsed by jshttp's
// range-parser, Express's own.
import { combineRanges, parse } from "range-parser";

export type ByteRange = { start: number; end: number } | "whole" | "unsatisfiable";

/**
 * `size` is the file's size now, `validators` the Last-Modified and strong ETag the answer carries
 * (If-Range is matched against them exactly: a weak tag, W/"…", never matches, §13.1.5).
 */
export function requestedRange(size: number, range: string | undefined, ifRange: string | undefined, validators: readonly string[]): ByteRange {
  if (!range || (ifRange !== undefined && !validators.includes(ifRange))) return "whole";
  const parsed = parse(size, range);
  if (parsed.type !== "bytes" || parsed.code & 1) return "whole";
  // An empty file has no byte to start from; its whole is the answer (range-parser's advice).
  if (parsed.ranges.length === 0) return size === 0 ? "whole" : "unsatisfiable";
  const ranges = combineRanges(parsed.ranges);
  return ranges.length === 1 ? ranges[0]! : "whole";
}
