// What a target node accepts of a source's manifest before it writes anything: the source is
// another machine, and a manifest is a list of paths to create. Every path must be relative,
// "/"-separated, with no empty, "." or ".." part and no NUL; spelled as the node spells names
// (core/files/raw-name canonicalName: one spelling per file, so no file is named twice); within
// Linux's PATH_MAX and NAME_MAX counted in the bytes on disk, not in the wire form (each raw byte
// takes three there, and a 200-byte Latin-1 name is a legitimate one). A backslash is a byte like
// any other on Linux, where both nodes run, so it is carried. Every entry's parent must be a
// folder the manifest named before it (so nothing is written through a link); the list sorted,
// each path once, at most MAX_MANIFEST_ENTRIES of them; sizes, modes and hashes well formed;
// totalBytes their sum and digest the one of these entries. Anything else refuses the whole
// manifest (ErrTransferManifest), naming the path in the log.
import { KilnError } from "../../core/errors";
import { bytesFromName, canonicalName } from "../../core/files/raw-name";
import { compareManifestPaths, manifestDigest } from "../../core/transfer/digest";
import type { ManifestEntry, TransferManifest } from "../../core/transfer/wire";
import { readSkipped } from "../../core/transfer/skipped";

/** A server folder with more entries than this is not moved by copying entry by entry. */
export const MAX_MANIFEST_ENTRIES = 100_000;
/** PATH_MAX and NAME_MAX on Linux, in bytes. */
const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;
const SHA256 = /^[0-9a-f]{64}$/;

/** Why a path cannot be in a manifest, or null when it can. The source refuses to offer a folder holding one (./manifest). */
export function pathProblem(path: unknown): string | null {
  if (typeof path !== "string" || path === "") return "not a path";
  if (path.includes("\0")) return "NUL byte";
  if (path.startsWith("/")) return "absolute";
  if (canonicalName(path) !== path) return "not spelled as the node spells names";
  if (bytesFromName(path).length > MAX_PATH_BYTES) return "too long";
  for (const part of path.split("/")) {
    if (part === "" || part === "." || part === "..") return "empty, . or .. part";
    if (bytesFromName(part).length > MAX_NAME_BYTES) return "name too long";
  }
  return null;
}

/** Why a link's text cannot be made here by spelling alone (the kernel judges the rest when it is made), or null. */
export function linkTargetProblem(target: unknown): string | null {
  if (typeof target !== "string" || target === "") return "not a link target";
  if (target.includes("\0")) return "NUL byte";
  if (target.startsWith("/")) return "absolute link";
  if (canonicalName(target) !== target) return "not spelled as the node spells names";
  if (bytesFromName(target).length > MAX_PATH_BYTES) return "link too long";
  return null;
}

function refused(reason: string, path?: string): KilnError {
  return new KilnError("ErrTransferManifest", path === undefined ? { reason } : { reason, path }, `manifest refused: ${reason}${path === undefined ? "" : ` (${JSON.stringify(path).slice(0, 300)})`}`);
}

const isMode = (mode: unknown): mode is number => Number.isInteger(mode) && (mode as number) >= 0 && (mode as number) <= 0o777;

/** The manifest as parsed JSON, checked whole; only the fields named in core/transfer/wire are kept. */
export function checkManifest(json: unknown): TransferManifest {
  if (!json || typeof json !== "object" || Array.isArray(json)) throw refused("not an object");
  const { entries, totalBytes, digest, skipped: said } = json as Record<string, unknown>;
  if (!Array.isArray(entries)) throw refused("no entries");
  if (entries.length > MAX_MANIFEST_ENTRIES) throw refused(`more than ${MAX_MANIFEST_ENTRIES} entries`);
  const checked: ManifestEntry[] = [];
  const folders = new Set<string>();
  let sum = 0;
  let previous: string | null = null;
  for (const raw of entries as unknown[]) {
    if (!raw || typeof raw !== "object") throw refused("an entry is not an object");
    const entry = raw as Record<string, unknown>;
    const path = entry.path;
    const problem = pathProblem(path);
    if (problem) throw refused(problem, typeof path === "string" ? path : undefined);
    const at = path as string;
    if (previous !== null && compareManifestPaths(previous, at) >= 0) throw refused("not sorted or named twice", at);
    previous = at;
    const slash = at.lastIndexOf("/");
    if (slash >= 0 && !folders.has(at.slice(0, slash))) throw refused("its folder is not named before it", at);
    if (entry.type === "dir") {
      if (!isMode(entry.mode)) throw refused("bad mode", at);
      folders.add(at);
      checked.push({ path: at, type: "dir", mode: entry.mode });
    } else if (entry.type === "file") {
      if (!isMode(entry.mode)) throw refused("bad mode", at);
      if (!Number.isSafeInteger(entry.size) || (entry.size as number) < 0) throw refused("bad size", at);
      if (typeof entry.sha256 !== "string" || !SHA256.test(entry.sha256)) throw refused("bad sha256", at);
      sum += entry.size as number;
      if (!Number.isSafeInteger(sum)) throw refused("sizes too large");
      checked.push({ path: at, type: "file", mode: entry.mode, size: entry.size as number, sha256: entry.sha256 });
    } else if (entry.type === "symlink") {
      const linkProblem = linkTargetProblem(entry.target);
      if (linkProblem) throw refused(linkProblem, at);
      checked.push({ path: at, type: "symlink", target: entry.target as string });
    } else throw refused("unknown type", at);
  }
  if (totalBytes !== sum) throw refused("totalBytes is not the sum of the sizes");
  if (typeof digest !== "string" || digest !== manifestDigest(checked)) throw refused("digest does not match the entries");
  // What the source left out, as it names it: reported, never made (nothing is written from it).
  const skipped = readSkipped(said);
  if (skipped === null || skipped?.paths.some(({ path }) => pathProblem(path))) throw refused("bad list of skipped entries");
  return { entries: checked, totalBytes: sum, digest, ...(skipped ? { skipped } : {}) };
}
