// Folder listings and the small folder operations the socket channel offers (spec: File entry).
import { readdirSync, statSync, lstatSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";

export interface FileEntry {
  name: string;
  isFile: boolean;
  size: number;
  /** Epoch seconds. */
  modifyTime: number;
}

export interface Listing {
  files: FileEntry[];
  /** The folder, relative to the server's folder ("" is the folder itself). */
  path: string;
}

export function listFolder(jail: Jail, path: string): Listing {
  const full = jail.resolve(path);
  let names: string[];
  try {
    if (!statSync(full).isDirectory()) throw new KilnError("ErrNotFound", { path }, `${path} is not a folder`);
    names = readdirSync(full);
  } catch (error) {
    if (error instanceof KilnError) throw error;
    throw new KilnError("ErrNotFound", { path });
  }
  const files = names.map((name) => entry(join(full, name), name)).filter((e): e is FileEntry => e !== null);
  files.sort((a, b) => Number(a.isFile) - Number(b.isFile) || a.name.localeCompare(b.name));
  return { files, path: jail.relative(full) };
}

function entry(full: string, name: string): FileEntry | null {
  try {
    // A symlink is shown as what it points to; the jail refuses to follow it out when opened.
    const stat = lstatSync(full).isSymbolicLink() ? statSync(full) : lstatSync(full);
    return { name, isFile: !stat.isDirectory(), size: stat.isDirectory() ? 0 : stat.size, modifyTime: Math.floor(stat.mtimeMs / 1000) };
  } catch {
    return null;
  }
}

export function createFolder(jail: Jail, path: string): void {
  mkdirSync(jail.resolve(path), { recursive: true });
}

export function deletePath(jail: Jail, path: string): void {
  const full = jail.resolveEntry(path);
  if (full === jail.root) throw new KilnError("ErrNoPermission", { path }, "the server's folder itself cannot be deleted");
  rmSync(full, { recursive: true, force: true });
}
