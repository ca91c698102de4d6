// How extraction failures reach the caller. A refused entry (ErrPathOutside) or a limit
// (ErrArchiveTooLarge) is already a catalogue error. An archive its reader cannot parse (truncated,
// corrupt, encrypted, an unknown compression method) is the user's file, not a fault of the
// node, so it answers ErrArchiveBroken (400) with the reader's reason rather than a 500.
import { KilnError } from "../../core/errors";
import { publicReason } from "../http/errors";

export function brokenArchive(name: string, error: unknown): KilnError {
  if (error instanceof KilnError) return error;
  const reason = publicReason(error);
  return new KilnError("ErrArchiveBroken", { name, reason }, `could not read ${name}: ${reason}`);
}

/**
 * Copies `source` chunk by chunk into `write`. Errors from reading (the archive's fault) become
 * brokenArchive; errors from writing (a limit, a refused name, a full disk) pass unchanged.
 */
export async function pump(source: AsyncIterable<Uint8Array>, write: (chunk: Uint8Array) => void, name: string): Promise<void> {
  const iterator = source[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw brokenArchive(name, error);
    }
    if (next.done) return;
    try {
      write(next.value);
    } catch (error) {
      await iterator.return?.();
      throw error;
    }
  }
}
