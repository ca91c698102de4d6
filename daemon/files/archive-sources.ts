// What goes into a zip the file manager creates: the chosen files and folders, folders walked
// through the jail. Entries are named relative to the folder the archive is written to, so
// unpacking it there gives the same tree; a source outside that folder is stored under its own
// name. A symbolic link is stored as what it points to when that is inside the server's folder,
// and skipped otherwise (a link out would otherwise copy the host's files into the archive).
// The list is made before the archive file exists, so the archive can never contain itself.
import type { Stats } from "node:fs";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { readFolder } from "./listing";
import { statPath } from "./operations";

export interface SourceEntry {
  /** The name inside the zip ("/"-separated, no trailing slash). */
  name: string;
  /** Where it is read from, jail-relative. */
  path: string;
  /** The stats of what is stored (a followed link's target). */
  stats: Stats;
}

/**
 * Every file and folder under `sources`, in walking order, each name once; `skip` leaves out an
 * entry (and what is under it) by its path (the server's fileDenylist).
 */
export function collectSources(jail: Jail, folder: string, sources: string[], skip: (path: string) => boolean = () => false): SourceEntry[] {
  const entries: SourceEntry[] = [];
  const names = new Set<string>();
  for (const source of sources) {
    const path = jail.normalize(source);
    const stats = followed(jail, path, statPath(jail, path, false));
    if (!stats) continue;
    const name = path === folder ? "" : folder === "" || path.startsWith(`${folder}/`) ? path.slice(folder ? folder.length + 1 : 0) : posix.basename(path);
    add(jail, { name, path, stats }, entries, names, new Set(), skip);
  }
  return entries;
}

function add(jail: Jail, entry: SourceEntry, entries: SourceEntry[], names: Set<string>, ancestors: Set<string>, skip: (path: string) => boolean): void {
  if (entry.name && names.has(entry.name)) return;
  if (skip(entry.path)) return;
  if (entry.name) {
    names.add(entry.name);
    entries.push(entry);
  }
  if (!entry.stats.isDirectory()) return;
  // A link to a folder above it (a -> ..) would otherwise be walked for ever.
  const id = `${entry.stats.dev}:${entry.stats.ino}`;
  if (ancestors.has(id)) return;
  const inside = new Set(ancestors).add(id);
  for (const child of readFolder(jail, entry.path)) {
    const path = entry.path ? `${entry.path}/${child.name}` : child.name;
    const stats = child.stats.isSymbolicLink() ? (child.target === child.stats ? undefined : child.target) : child.stats;
    if (!stats || !(stats.isFile() || stats.isDirectory())) continue;
    add(jail, { name: entry.name ? `${entry.name}/${child.name}` : child.name, path, stats }, entries, names, inside, skip);
  }
}

/** A source's stats, a link followed when it stays inside; undefined for a link leading out or nowhere. */
function followed(jail: Jail, path: string, own: Stats): Stats | undefined {
  if (!own.isSymbolicLink()) return own;
  try {
    return statPath(jail, path);
  } catch (error) {
    if (error instanceof KilnError && (error.code === "ErrPathOutside" || error.code === "ErrNotFound")) return undefined;
    throw error;
  }
}
