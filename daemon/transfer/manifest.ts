// The source node's manifest of an offered server's folder: every folder, regular file (size, mode
// and SHA-256) and symbolic link (its text, never followed), sorted by path, with their total and
// digest (core/transfer). The folder is walked through the jail (daemon/files/walk: each folder
// opened beneath the root, never through a link) and each file opened as the file API opens it.
//
// Left out, because the target could not or should not make them: FIFOs, sockets and devices (no
// server keeps data in them); a file with more than one name (it may be a host file: the file API
// refuses to read it too). Those are said, not silent: the manifest's `skipped` names them
// (core/transfer/wire TransferSkipped) and the move reports them. Left out without a word: the node's own half-written files (".….kiln-partial"); and links whose text is absolute or that
// lead out of the folder as the kernel follows them. A tar would copy such a link's text, but the
// server's own process is not jailed and would follow it on the target, and the target's file
// API and SFTP refuse to make such links for the same reason (daemon/files/operations makeSymlink).
// Every name is carried with its exact bytes (core/files/raw-name), a backslash and a long name
// that is not UTF-8 too; a path the target would refuse (./manifest-check: longer than PATH_MAX)
// refuses the whole manifest, naming it (ErrTransferManifest), so the move fails before it
// switches anything rather than leaving a file behind without a word.
//
// The answer streams: the folder is listed first (fast), then each entry is sent once hashed, and
// while a large file is being hashed a space goes out every few seconds (JSON allows whitespace
// between values), so the target, which gives up on a source silent for a minute, keeps waiting.
import type { Stats } from "node:fs";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import { compareManifestPaths, manifestDigest } from "../../core/transfer/digest";
import { MAX_SKIPPED_NAMED, type ManifestEntry, type SkippedKind, type TransferSkipped } from "../../core/transfer/wire";
import type { Jail } from "../files/jail";
import { readLinkText } from "../files/link-text";
import { isPartialName } from "../files/partial-file";
import { STOP, walkJail } from "../files/walk";
import { hashFile } from "./hash-file";
import { linkTargetProblem, MAX_MANIFEST_ENTRIES, pathProblem } from "./manifest-check";

/** How often a space keeps the answer alive while one large file is hashed. */
const KEEP_ALIVE_MS = 10_000;

type Listed = { path: string; type: "dir"; mode: number } | { path: string; type: "file" } | { path: string; type: "symlink" };

/** The folder's entries, sorted, files not hashed yet, and what is left out; ErrTransferManifest when there are too many, or one the target could not make. */
export async function listOffered(jail: Jail): Promise<{ listed: Listed[]; skipped: TransferSkipped }> {
  const listed: Listed[] = [];
  const skipped: TransferSkipped = { count: 0, paths: [] };
  const skip = (path: string, kind: SkippedKind) => {
    if (skipped.paths.length < MAX_SKIPPED_NAMED) skipped.paths.push({ path, kind });
    skipped.count++;
  };
  let tooMany = false;
  let refused: { path: string; problem: string } | null = null;
  await walkJail(jail, "", (path: string, stats: Stats) => {
    if (listed.length >= MAX_MANIFEST_ENTRIES) {
      tooMany = true;
      return STOP;
    }
    const problem = pathProblem(path);
    if (problem) {
      refused = { path, problem };
      return STOP;
    }
    if (stats.isDirectory()) listed.push({ path, type: "dir", mode: stats.mode & 0o777 });
    else if (stats.isFile() && stats.nlink === 1 && !isPartialName(posix.basename(path))) listed.push({ path, type: "file" });
    else if (stats.isSymbolicLink()) listed.push({ path, type: "symlink" });
    else if (stats.isFile() && stats.nlink > 1) skip(path, "hardlink");
    else if (!stats.isFile()) skip(path, "special");
    return stats.isDirectory();
  });
  if (refused) {
    const { path, problem } = refused as { path: string; problem: string };
    throw new KilnError("ErrTransferManifest", { reason: problem, path }, `${JSON.stringify(path).slice(0, 300)}: ${problem}, the target could not make it`);
  }
  if (tooMany) throw new KilnError("ErrTransferManifest", { reason: `more than ${MAX_MANIFEST_ENTRIES} entries` }, `the folder has more than ${MAX_MANIFEST_ENTRIES} entries`);
  skipped.paths.sort((a, b) => compareManifestPaths(a.path, b.path));
  return { listed: listed.sort((a, b) => compareManifestPaths(a.path, b.path)), skipped };
}

/** One listed entry as the manifest says it, or null when it vanished or may not be sent (see above). */
async function describe(jail: Jail, item: Listed, tick: () => void, cache: Map<string, string>): Promise<ManifestEntry | null> {
  if (item.type === "dir") return item;
  try {
    if (item.type === "file") {
      const { size, sha256, mode } = await hashFile(jail, item.path, tick, cache);
      return { path: item.path, type: "file", mode, size, sha256 };
    }
    const target = jail.at(item.path, readLinkText);
    if (linkTargetProblem(target)) return null;
    const folder = posix.dirname(item.path) === "." ? "" : posix.dirname(item.path);
    if (!jail.leadsInside(folder ? `${folder}/${target}` : target)) return null;
    return { path: item.path, type: "symlink", target };
  } catch {
    // Gone since the listing, swapped for something else, or a hard link now: not sent.
    return null;
  }
}

/** The manifest as a streamed JSON body. */
export function manifestBody(jail: Jail, { listed, skipped }: { listed: Listed[]; skipped: TransferSkipped }, cache: Map<string, string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const sent: ManifestEntry[] = [];
  let next = 0;
  let totalBytes = 0;
  let lastSent = Date.now();
  let closed = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"entries":['));
    },
    async pull(controller) {
      const send = (text: string) => {
        if (closed) return;
        controller.enqueue(encoder.encode(text));
        lastSent = Date.now();
      };
      const tick = () => {
        if (Date.now() - lastSent >= KEEP_ALIVE_MS) send(" ");
      };
      while (next < listed.length && !closed) {
        const entry = await describe(jail, listed[next++]!, tick, cache);
        if (!entry) continue;
        send(`${sent.length > 0 ? "," : ""}${JSON.stringify(entry)}`);
        sent.push(entry);
        if (entry.type === "file") totalBytes += entry.size;
        return;
      }
      if (closed) return;
      const said = skipped.count > 0 ? `,"skipped":${JSON.stringify(skipped)}` : "";
      send(`]${said},"totalBytes":${totalBytes},"digest":"${manifestDigest(sent)}"}`);
      closed = true;
      controller.close();
    },
    cancel() {
      closed = true;
    },
  });
}
