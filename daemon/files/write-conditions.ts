// A write that names the version it means to replace (RFC 9110 §13.1: If-Match with the ETag the
// file was read with, or If-Unmodified-Since with its Last-Modified) is refused with ErrFileChanged
// (412) when the file is another version by then, and nothing is written: an editor's save never
// silently drops what the game, SFTP or another user wrote since it opened the file. A write that
// names nothing replaces whatever is there, as PufferPanel's clients expect.
//
// The check is made twice: before the body is read (a stale save is refused without a byte
// written), and again after its last byte, the last thing before writeAtomically renames the new
// file over the old: nothing between the two waits for anything, so only a process writing in
// that same instant can slip in. (rename(2) has no form that replaces only a given inode.)
import { KilnError } from "../../core/errors";
import { currentVersion, type FileVersion } from "./file-version";
import type { Jail } from "./jail";

export interface WriteConditions {
  ifMatch?: string;
  ifUnmodifiedSince?: string;
}

/** Whether the request names a version at all (a plain PUT does not). */
function hasConditions(conditions: WriteConditions): boolean {
  return conditions.ifMatch !== undefined || conditions.ifUnmodifiedSince !== undefined;
}

/** Refuses with ErrFileChanged unless the file at `path` is now the version `conditions` name. */
export function assertUnchanged(jail: Jail, path: string, conditions: WriteConditions): void {
  if (!hasConditions(conditions)) return;
  if (!holds(conditions, currentVersion(jail, path))) {
    throw new KilnError("ErrFileChanged", { path: jail.normalize(path) }, `${path} is not the version the write names`);
  }
}

/**
 * `chunks` as they come, then `assertUnchanged` once more after the last one, before the writer
 * (writeAtomically) goes on to rename: a refusal there removes its temporary file.
 */
export async function* checkedAtEnd(chunks: AsyncIterable<Uint8Array>, jail: Jail, path: string, conditions: WriteConditions): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) yield chunk;
  assertUnchanged(jail, path, conditions);
}

/** RFC 9110 §13.2.2, steps 1 and 2: If-Match when present, else If-Unmodified-Since. */
function holds(conditions: WriteConditions, current: FileVersion | null): boolean {
  if (conditions.ifMatch !== undefined) {
    // "*" asks only that a file be there: one made meanwhile by someone else is not replaced.
    if (current === null) return false;
    if (conditions.ifMatch.trim() === "*") return true;
    return entityTags(conditions.ifMatch).includes(current.etag);
  }
  const since = Date.parse(conditions.ifUnmodifiedSince ?? "");
  // A date that is not one is ignored, and so is the date of a file no longer there (§13.1.4).
  if (Number.isNaN(since) || current === null) return true;
  // Last-Modified says whole seconds: a change within the second it names is not seen (If-Match is).
  return current.modifiedSeconds <= Math.floor(since / 1000);
}

/**
 * The tags of an If-Match list, each as "opaque". A tag a reverse proxy weakened on its way out
 * (W/"…", as nginx does to what it compresses) still names the exact version this node made it
 * of, so it is compared by its opaque part; a tag this node never made matches nothing.
 */
function entityTags(header: string): string[] {
  return [...header.matchAll(/(?:W\/)?("[^"]*")/g)].map((match) => match[1]!);
}
