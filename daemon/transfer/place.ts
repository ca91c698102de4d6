// Writing a manifest's entries into the target server's folder, every step through its jail
// (daemon/files: folders opened beneath the root, links never followed out, files written to a
// partial file and renamed into place, charged to the server's disk space). An entry of another
// type in the way (a file where the manifest has a folder, a link where it has a file) is removed
// first: the copy must end up as the source's folder, and only this server's folder is touched.
import { lstatSync, mkdirSync, type Stats } from "node:fs";
import { createHash } from "node:crypto";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import type { ManifestEntry } from "../../core/transfer/wire";
import type { Jail } from "../files/jail";
import { readLinkText } from "../files/link-text";
import { changeMode } from "../files/mode";
import { makeSymlink, removePath, writeAtomically } from "../files/operations";
import { assertFits } from "../files/quota";
import { walkJail } from "../files/walk";
import { hashFile } from "./hash-file";

type Entry<T extends ManifestEntry["type"]> = Extract<ManifestEntry, { type: T }>;

/**
 * Entries handled between two turns of the node's event loop. A manifest holds up to 100,000
 * entries, each a few system calls here: done in one go, that held the node's one thread (every
 * server's console, API and heartbeat) for as long as a hostile source made it last.
 */
const ENTRIES_PER_TURN = 256;

/** Gives the event loop a turn after every ENTRIES_PER_TURN calls. */
function turns(): () => Promise<void> {
  let done = 0;
  return async () => {
    if (++done % ENTRIES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  };
}

/**
 * Rounds of making links: a link whose text goes through another link not made yet is tried again
 * in the next round. Each round tries every link still refused, so a manifest of chains, each link
 * sorted before the one it goes through, made the work links × chain length (up to the kernel's 40
 * links followed): 3,900 such links held the node's thread for 8 to 16 s where one round takes
 * 0.4 s. Real folders need one or two rounds; past this many, what is still refused is refused.
 */
export const MAX_LINK_ROUNDS = 4;

/** The entry at `path` itself (a link is not followed), or null when nothing is there. */
export function lstatLocal(jail: Jail, path: string): Stats | null {
  return jail.at(path, (entry) => {
    try {
      return lstatSync(entry);
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return null;
      throw error;
    }
  });
}

/**
 * A folder of the manifest, made or kept. It stays writable by the node until the copy ends
 * (finishFolders gives it its own mode), so a read-only folder can still be filled and resumed.
 */
export function placeFolder(jail: Jail, entry: Entry<"dir">): void {
  const local = lstatLocal(jail, entry.path);
  if (local && !local.isDirectory()) removePath(jail, entry.path);
  if (!local || !local.isDirectory()) {
    jail.at(entry.path, (at) => {
      mkdirSync(at, 0o700);
      jail.own(at);
    });
  }
  changeMode(jail, entry.path, entry.mode | 0o700);
}

/** The manifest's folders made or kept (placeFolder), a turn of the event loop given now and then. */
export async function placeFolders(jail: Jail, folders: Entry<"dir">[]): Promise<void> {
  const turn = turns();
  for (const folder of folders) {
    placeFolder(jail, folder);
    await turn();
  }
}

/** Every folder its own mode, the deepest first (a folder without write or search bits is done last). */
export async function finishFolders(jail: Jail, folders: Entry<"dir">[]): Promise<void> {
  const turn = turns();
  for (const entry of [...folders].reverse()) {
    changeMode(jail, entry.path, entry.mode);
    await turn();
  }
}

/**
 * Whether the file is here already with the manifest's size and SHA-256 (a pull resumed, or a final
 * sync of what did not change); its mode is set to the manifest's then. Anything else is not.
 */
export async function alreadyHere(jail: Jail, entry: Entry<"file">, hashes: Map<string, string>): Promise<boolean> {
  const local = lstatLocal(jail, entry.path);
  if (!local?.isFile() || local.size !== entry.size) return false;
  let hashed;
  try {
    hashed = await hashFile(jail, entry.path, undefined, hashes);
  } catch {
    return false; // a hard link, say: replaced by the download
  }
  if (hashed.size !== entry.size || hashed.sha256 !== entry.sha256) return false;
  if (hashed.mode !== entry.mode) changeMode(jail, entry.path, entry.mode);
  return true;
}

function checksumError(entry: Entry<"file">, reason: string): KilnError {
  return new KilnError("ErrTransferChecksum", { path: entry.path, reason }, `${entry.path}: ${reason}`);
}

/**
 * The downloaded bytes, counted and hashed on their way to disk: more than the declared size stops
 * at once, and a short or different file fails after its last byte, before the partial file is
 * renamed into place (writeAtomically then removes it).
 */
async function* checked(entry: Entry<"file">, body: AsyncIterable<Uint8Array>, onBytes: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > entry.size) throw checksumError(entry, "longer than declared");
    hash.update(chunk);
    yield chunk;
    onBytes(chunk.byteLength);
  }
  if (size !== entry.size) throw checksumError(entry, "shorter than declared");
  if (hash.digest("hex") !== entry.sha256) throw checksumError(entry, "SHA-256 differs");
}

/** Writes a file of the manifest from `body`, atomically, with its mode. */
export async function placeFile(jail: Jail, entry: Entry<"file">, body: AsyncIterable<Uint8Array>, onBytes: (bytes: number) => void): Promise<void> {
  const local = lstatLocal(jail, entry.path);
  if (local && !local.isFile()) removePath(jail, entry.path);
  assertFits(jail, entry.size);
  await writeAtomically(jail, entry.path, checked(entry, body, onBytes), 0o600);
  changeMode(jail, entry.path, entry.mode);
}

/**
 * The manifest's links, made as links. Each is judged by the kernel as it would be followed from
 * where it lands (makeSymlink): one that would lead out of the folder is never made. A link may go
 * through another not made yet, so those refused are tried again while a round makes progress, for
 * MAX_LINK_ROUNDS rounds at most; what is still refused then was not a link the source may send
 * (ErrTransferManifest).
 */
export async function placeLinks(jail: Jail, links: Entry<"symlink">[]): Promise<void> {
  let pending = links;
  const turn = turns();
  for (let round = 1; ; round++) {
    const refused: Entry<"symlink">[] = [];
    for (const entry of pending) {
      await turn();
      const local = lstatLocal(jail, entry.path);
      if (local?.isSymbolicLink() && jail.at(entry.path, readLinkText) === entry.target) continue;
      if (local) removePath(jail, entry.path);
      try {
        makeSymlink(jail, entry.target, entry.path);
      } catch (error) {
        if (!(error instanceof KilnError && error.code === "ErrPathOutside")) throw error;
        refused.push(entry);
      }
    }
    if (refused.length === 0) return;
    if (refused.length === pending.length || round >= MAX_LINK_ROUNDS) {
      const first = refused[0]!;
      throw new KilnError("ErrTransferManifest", { reason: "link leads out of the folder", path: first.path }, `${first.path}: the link leads out of the server's folder`);
    }
    pending = refused;
  }
}

/**
 * Every link in the folder, judged again once all are made: a link is judged as the kernel follows
 * it when it is made (placeLinks), but a folder or link it goes through may be replaced after that
 * (a resumed pull or the final sync makes a folder where a link was, or gives a link another
 * target; a link already in place is kept unjudged), and then the same text climbs out. Such a
 * link is removed, and the pull refused (ErrTransferManifest).
 */
export async function assertLinksInside(jail: Jail): Promise<void> {
  const found: string[] = [];
  await walkJail(jail, "", (path, stats) => {
    if (!stats.isSymbolicLink()) return true;
    found.push(path);
    return false;
  });
  const outward: string[] = [];
  const turn = turns();
  for (const path of found) {
    const folder = posix.dirname(path) === "." ? "" : posix.dirname(path);
    const target = jail.at(path, readLinkText);
    if (!jail.leadsInside(folder ? `${folder}/${target}` : target)) outward.push(path);
    await turn();
  }
  for (const path of outward) removePath(jail, path);
  if (outward.length > 0) throw new KilnError("ErrTransferManifest", { reason: "link leads out of the folder", path: outward[0]! }, `${outward[0]}: the link leads out of the server's folder`);
}

/** Removes what the folder holds and the manifest does not name (a final sync: files deleted at the source). */
export async function pruneUnnamed(jail: Jail, named: Map<string, ManifestEntry["type"]>): Promise<number> {
  const extra: string[] = [];
  await walkJail(jail, "", (path, stats) => {
    const type = named.get(path);
    if (type === undefined) {
      extra.push(path);
      return false;
    }
    return type === "dir" && stats.isDirectory();
  });
  for (const path of extra) removePath(jail, path);
  return extra.length;
}

/**
 * The manifest's entries as they are on disk now, in its order, for the digest that ends a pull.
 * Files are read again, except those this pull hashed already (`hashes`, from alreadyHere) whose
 * inode, size, modification and change times have not moved since: a final sync of a large world
 * then reads only what it fetched.
 */
export async function onDisk(jail: Jail, entries: ManifestEntry[], hashes: Map<string, string>): Promise<ManifestEntry[]> {
  const found: ManifestEntry[] = [];
  const turn = turns();
  for (const entry of entries) {
    await turn();
    const local = lstatLocal(jail, entry.path);
    if (!local) throw new KilnError("ErrTransferChecksum", { path: entry.path, reason: "missing" }, `${entry.path} is missing after the copy`);
    if (local.isDirectory()) found.push({ path: entry.path, type: "dir", mode: local.mode & 0o777 });
    else if (local.isSymbolicLink()) found.push({ path: entry.path, type: "symlink", target: jail.at(entry.path, readLinkText) });
    else if (local.isFile()) {
      const { size, sha256, mode } = await hashFile(jail, entry.path, undefined, hashes);
      found.push({ path: entry.path, type: "file", mode, size, sha256 });
    } else throw new KilnError("ErrTransferChecksum", { path: entry.path, reason: "not a file" }, `${entry.path} is not a file after the copy`);
  }
  return found;
}
