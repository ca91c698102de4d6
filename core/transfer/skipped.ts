// A move's list of what its source left out (core/transfer/wire TransferSkipped), read as a
// stranger's: by the target from the source's manifest, by the panel from the target's progress.
// Both are other machines, and the list ends on a transfer's row and a page.
import { MAX_SKIPPED_NAMED, SKIPPED_KINDS, type SkippedKind, type TransferSkipped } from "./wire";

/** The longest path named: PATH_MAX bytes, each raw byte three in the wire form (core/files/raw-name). */
const MAX_PATH_CHARS = 3 * 4096;

/** The list as sent, checked; undefined when absent, null when it is not one (the reader refuses the answer). */
export function readSkipped(value: unknown): TransferSkipped | undefined | null {
  if (value === undefined) return undefined;
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const { count, paths } = value as Record<string, unknown>;
  if (!Array.isArray(paths) || paths.length > MAX_SKIPPED_NAMED || !Number.isSafeInteger(count) || (count as number) < paths.length || (count as number) < 1) return null;
  const named: TransferSkipped["paths"] = [];
  for (const item of paths as unknown[]) {
    const { path, kind } = (item && typeof item === "object" ? item : {}) as Record<string, unknown>;
    if (typeof path !== "string" || path === "" || path.length > MAX_PATH_CHARS || path.includes("\0")) return null;
    if (!SKIPPED_KINDS.includes(kind as SkippedKind)) return null;
    named.push({ path, kind: kind as SkippedKind });
  }
  return { count: count as number, paths: named };
}
