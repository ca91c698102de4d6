// Folder listings: the file API's and the socket channel's (listFolder: read a page at a time with
// the event loop let go between pages, and at most LISTING_MAX_ENTRIES of them), and the whole of a
// folder for the node's own walks (readFolder). SFTP reads its listings a page at a time itself
// (./folder-reader).
import { lstatSync, readdirSync, type Stats } from "node:fs";
import { KilnError } from "../../core/errors";
import { nameFromBytes } from "../../core/files/raw-name";
import { FolderReader, linkTarget, unreachableName } from "./folder-reader";
import type { Jail } from "./jail";
import { fsPath } from "./fs-path";

/**
 * The most entries one listing of the file API (and the socket's `file` message) holds: a folder
 * with more answers these, with `truncated`. Folders a person browses hold far fewer; listing a
 * million takes seconds of lstat and a body of a hundred MiB the file manager could not show.
 */
export const LISTING_MAX_ENTRIES = 10_000;
/** Entries read between two turns of the event loop (each an lstat: about a millisecond's worth). */
const ENTRIES_PER_TURN = 500;

export interface FileEntry {
  name: string;
  isFile: boolean;
  size: number;
  /** Epoch seconds. */
  modifyTime: number;
  /** Permission bits (with setuid, setgid and sticky), of a link's target; Kiln's addition to the entry other daemons send, for the file manager's chmod. */
  mode: number;
}

export interface Listing {
  files: FileEntry[];
  /** The folder, relative to the server's folder ("" is the folder itself). */
  path: string;
  /** The folder holds more than LISTING_MAX_ENTRIES entries: `files` are the first of them as the folder keeps them (then sorted), not the first by name. */
  truncated: boolean;
}

export interface DetailedEntry {
  name: string;
  /** lstat: a symlink is itself. */
  stats: Stats;
  /** What a symlink leads to (only when it stays inside the folder), else the entry itself. */
  target: Stats;
}

/**
 * The entries of a folder with their lstat and, for symlinks that stay inside, their target's
 * stat: the whole folder at once, for the node's own work on it (copies, archives, the denylist,
 * install steps). What users list is read in pages instead (listFolder, ./folder-reader).
 */
export function readFolder(jail: Jail, path: string): DetailedEntry[] {
  return jail.inFolder(path, (folder) => {
    let names: string[];
    try {
      names = readdirSync(folder, { encoding: "buffer" }).map(nameFromBytes);
    } catch {
      throw new KilnError("ErrNotFound", { path }, `${path} is not a folder`);
    }
    const entries: DetailedEntry[] = [];
    for (const name of names) {
      // A name that is not text is refused, never silently left out of a copy or a walk.
      const refusal = unreachableName(name, path);
      if (refusal) throw refusal;
      let stats: Stats;
      try {
        stats = lstatSync(fsPath(`${folder}/${name}`)); // by its bytes: a text name may be spelled with escapes (core/files/raw-name)
      } catch {
        continue; // gone meanwhile
      }
      entries.push({ name, stats, target: stats.isSymbolicLink() ? linkTarget(jail, path, name) ?? stats : stats });
    }
    return entries;
  });
}

/**
 * A folder's listing for the file API and the socket: folders first, then by name; a symlink as
 * what it leads to when that is inside. Read a page at a time, letting the event loop go between
 * pages, so a folder of a million entries neither holds the node up nor its memory: at most
 * LISTING_MAX_ENTRIES entries are read, and `truncated` says there were more.
 */
export async function listFolder(jail: Jail, path: string): Promise<Listing> {
  const normal = jail.normalize(path);
  const reader = new FolderReader(jail, normal, true);
  const files: FileEntry[] = [];
  let truncated = false;
  try {
    for (let entry = reader.read(); entry; entry = reader.read()) {
      if (files.length === LISTING_MAX_ENTRIES) {
        truncated = true;
        break;
      }
      const { name, target } = entry;
      files.push({
        name,
        isFile: !target.isDirectory(),
        size: target.isDirectory() ? 0 : target.size,
        modifyTime: Math.floor(target.mtimeMs / 1000),
        mode: target.mode & 0o7777,
      });
      if (files.length % ENTRIES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    reader.close();
  }
  files.sort((a, b) => Number(a.isFile) - Number(b.isFile) || a.name.localeCompare(b.name));
  return { files, path: normal, truncated };
}
