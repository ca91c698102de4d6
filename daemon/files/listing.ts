// Folder listings, for the file API, the socket channel and SFTP.
import { closeSync, fstatSync, lstatSync, readdirSync, type Stats } from "node:fs";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { O_PATH } from "./openat2";

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
}

export interface DetailedEntry {
  name: string;
  /** lstat: a symlink is itself. */
  stats: Stats;
  /** What a symlink leads to (only when it stays inside the folder), else the entry itself. */
  target: Stats;
}

/** The entries of a folder with their lstat and, for symlinks that stay inside, their target's stat. */
export function readFolder(jail: Jail, path: string): DetailedEntry[] {
  return jail.inFolder(path, (folder) => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      throw new KilnError("ErrNotFound", { path }, `${path} is not a folder`);
    }
    const entries: DetailedEntry[] = [];
    for (const name of names) {
      let stats: Stats;
      try {
        stats = lstatSync(`${folder}/${name}`);
      } catch {
        continue; // gone meanwhile
      }
      entries.push({ name, stats, target: stats.isSymbolicLink() ? linkTarget(jail, path, name) ?? stats : stats });
    }
    return entries;
  });
}

/** Where a symlink leads, through the jail: undefined when it leads outside or nowhere. */
function linkTarget(jail: Jail, folder: string, name: string): Stats | undefined {
  try {
    const fd = jail.open(folder ? `${folder}/${name}` : name, O_PATH);
    try {
      return fstatSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

export function listFolder(jail: Jail, path: string): Listing {
  const normal = jail.normalize(path);
  const files = readFolder(jail, normal).map(({ name, target }) => ({
    name,
    isFile: !target.isDirectory(),
    size: target.isDirectory() ? 0 : target.size,
    modifyTime: Math.floor(target.mtimeMs / 1000),
    mode: target.mode & 0o7777,
  }));
  files.sort((a, b) => Number(a.isFile) - Number(b.isFile) || a.name.localeCompare(b.name));
  return { files, path: normal };
}
