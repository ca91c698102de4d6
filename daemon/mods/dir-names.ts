// The first entries of a folder in a server's folder, never more than asked for. readdir (and
// Bun's opendir, which reads the whole folder at open) costs as much as the folder holds, and the
// server's users can put a million entries anywhere; getdents64(2) on a descriptor the jail opened
// reads one buffer at a time, so the cost ends with the limit. Entry types come from the kernel
// (d_type) without following anything.
import { closeSync, constants, lstatSync, readdirSync, type Stats } from "node:fs";
import type { Jail } from "../files/jail";
import { nameFromBytes } from "../../core/files/raw-name";
import { fsPath } from "../files/fs-path";
import { DIRENT_TYPE, getdentsAvailable, readDirents } from "../files/getdents";

export type EntryKind = "file" | "folder" | "link" | "other";
export interface DirName {
  name: string;
  kind: EntryKind;
}

/** How many entries one look at a folder reads, at most. */
export const MAX_DIR_ENTRIES = 1000;

const BUFFER_BYTES = 32 * 1024;

/**
 * Up to `limit` entries of the folder `path` (jail-relative), in the order the file system keeps
 * them; null when it is not a folder inside the jail. "." and ".." are left out.
 */
export function dirNames(jail: Jail, path: string, limit = MAX_DIR_ENTRIES): DirName[] | null {
  let fd: number;
  try {
    fd = jail.open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    return getdentsAvailable ? getdents(fd, limit) : fallback(fd, limit);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function getdents(fd: number, limit: number): DirName[] {
  const buffer = new Uint8Array(BUFFER_BYTES);
  const entries: DirName[] = [];
  while (entries.length < limit) {
    const read = readDirents(fd, buffer);
    if (read === null) break;
    for (const { name, type } of read.slice(0, limit - entries.length)) entries.push({ name, kind: type === DIRENT_TYPE.unknown ? kindOf(fd, name) : kindOfType(type) });
  }
  return entries;
}

function kindOfType(type: number): EntryKind {
  return type === DIRENT_TYPE.file ? "file" : type === DIRENT_TYPE.folder ? "folder" : type === DIRENT_TYPE.link ? "link" : "other";
}

/** Some file systems leave d_type unknown: lstat the entry itself (never followed). */
function kindOf(fd: number, name: string): EntryKind {
  let stats: Stats;
  try {
    stats = lstatSync(fsPath(`/proc/self/fd/${fd}/${name}`)); // a wire name: its bytes (core/files/raw-name)
  } catch {
    return "other";
  }
  return stats.isFile() ? "file" : stats.isDirectory() ? "folder" : stats.isSymbolicLink() ? "link" : "other";
}

/** Without getdents64 through FFI (not Linux): readdir, cut to the limit. */
function fallback(fd: number, limit: number): DirName[] {
  return readdirSync(`/proc/self/fd/${fd}`, { encoding: "buffer" }).slice(0, limit).map((bytes) => {
    const name = nameFromBytes(bytes);
    return { name, kind: kindOf(fd, name) };
  });
}
