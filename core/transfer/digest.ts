// The one digest of a transfer manifest, computed alike by the source (when it lists the folder)
// and the target (over what it wrote, once the copy is done): if the two agree, every entry
// arrived with its type, size, content, mode and link text. Each entry is one line of JSON, an
// array of its fields in a fixed order with null for those its type lacks, so no two different
// entry lists can spell the same text (a name holding a newline is escaped by JSON).
import { createHash } from "node:crypto";
import type { ManifestEntry } from "./wire";

export function manifestDigest(entries: readonly ManifestEntry[]): string {
  const hash = createHash("sha256");
  for (const entry of entries) {
    const size = entry.type === "file" ? entry.size : null;
    const sha256 = entry.type === "file" ? entry.sha256 : null;
    const mode = entry.type === "symlink" ? null : entry.mode;
    const target = entry.type === "symlink" ? entry.target : null;
    hash.update(`${JSON.stringify([entry.path, entry.type, size, sha256, mode, target])}\n`);
  }
  return hash.digest("hex");
}

/**
 * The manifest's order: by path, comparing UTF-16 code units (JavaScript's own `<`), so both ends
 * sort alike whatever their locale. A folder always comes before everything inside it.
 */
export function compareManifestPaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
