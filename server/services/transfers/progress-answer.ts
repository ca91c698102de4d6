// A target node's answer to a progress poll, read as a stranger's (the node is another machine):
// the state one of the wire's, each count a whole number from 0 to 2^53 - 1, the bytes done never
// above the total. A target that answered a megabyte of text as its total, or 1e300 bytes done,
// had them written onto the transfer's row and shown on every page of the move; an answer not of
// this shape now fails the move (ErrTransferFailed), and counts that merely disagree are bounded.
import { KilnError } from "../../../core/errors";
import { PULL_STATES, type PullProgress, type PullState } from "../../../core/transfer/wire";
import { readSkipped } from "../../../core/transfer/skipped";

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The progress the target reported, checked and bounded; ErrTransferFailed naming the node when it is not one. */
export function checkedProgress(json: unknown, node: string): PullProgress {
  const body = (json && typeof json === "object" && !Array.isArray(json) ? json : {}) as Record<string, unknown>;
  const { state, bytes, totalBytes, files, filesDone, digest, error } = body;
  const skipped = readSkipped(body.skipped);
  if (!PULL_STATES.includes(state as PullState) || ![bytes, totalBytes, files, filesDone].every(isCount) || skipped === null) {
    throw new KilnError("ErrTransferFailed", { node }, `${node} answered a progress that is not one`);
  }
  const total = totalBytes as number;
  const allFiles = files as number;
  return {
    state: state as PullState,
    bytes: Math.min(bytes as number, total),
    totalBytes: total,
    files: allFiles,
    filesDone: Math.min(filesDone as number, allFiles),
    ...(typeof digest === "string" ? { digest: digest.slice(0, 64) } : {}),
    ...(typeof error === "string" ? { error: error.slice(0, 64) } : {}),
    ...(skipped ? { skipped } : {}),
  };
}
