// How much one extraction may unpack. Archives are user uploads: a few kilobytes of zip or gzip can
// claim terabytes (a "bomb"), so every extraction is capped by the bytes it actually writes and
// by its number of entries. The node's config can raise or lower both.
import { KilnError } from "../../core/errors";

export interface ExtractLimits {
  /** Uncompressed bytes written, summed over the whole archive. */
  maxBytes: number;
  /** Entries of any kind (files, folders, links, skipped specials). */
  maxEntries: number;
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxBytes: 8 * 1024 ** 3,
  maxEntries: 100_000,
};

export function tooLarge(limits: ExtractLimits): KilnError {
  return new KilnError("ErrArchiveTooLarge", { maxBytes: limits.maxBytes, maxEntries: limits.maxEntries }, `the archive unpacks to more than ${limits.maxBytes} bytes or ${limits.maxEntries} entries`);
}
