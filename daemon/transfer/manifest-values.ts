// How many JSON values a manifest holds, counted as its bytes arrive, before JSON.parse sees it.
// The byte cap alone (64 MiB) let a source send `{"entries":[{},{},…` — 22 million empty objects
// in that size — which JSON.parse turned into about 2 GB of objects over some 16 s of the node's
// one thread, stalling every server on it, before the entry count could refuse the list. Every
// value after a container's first is preceded by a comma, so commas plus container openings bound
// the values; counted on the raw bytes (a quote or backslash byte is never part of a UTF-8
// sequence), skipping strings, the list is refused as soon as it passes what a real one needs.
import { KilnError } from "../../core/errors";
import { MAX_MANIFEST_ENTRIES } from "./manifest-check";

/**
 * Commas and openings a real manifest may hold: an entry has at most five fields (four commas),
 * one opening and the comma before it; the outer object and list add four.
 */
export const MAX_MANIFEST_VALUES = MAX_MANIFEST_ENTRIES * 6 + 16;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const OPEN_LIST = 0x5b;

/** Fed the manifest's chunks in order; throws ErrTransferManifest once they hold too many values. */
export class ManifestValueCounter {
  private inString = false;
  private escaped = false;
  private count = 0;

  constructor(private readonly max: number = MAX_MANIFEST_VALUES) {}

  feed(chunk: Uint8Array): void {
    let { inString, escaped, count } = this;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === COMMA || byte === OPEN_OBJECT || byte === OPEN_LIST) count++;
    }
    Object.assign(this, { inString, escaped, count });
    if (count > this.max) throw new KilnError("ErrTransferManifest", { reason: "too many values" }, `the manifest holds more than ${this.max} JSON values`);
  }
}
