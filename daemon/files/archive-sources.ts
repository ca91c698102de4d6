// What goes into a zip the file manager creates: the chosen files and folders, folders walked
// through the jail. Entries are named relative to the folder the archive is written to, so
// unpacking it there gives the same tree; a source outside that folder is stored under its own
// name. A symbolic link is stored as what it points to when that is inside the server's folder,
// and skipped otherwise (a link out would otherwise copy the host's files into the archive).
// The list is made before the archive file exists, so the archive can never contain itself.
//
// Links make the folder tree a graph: a folder holding two links to itself, or a chain of folders
// each holding two links to the one before, names the same real folders 2^n times over. So one
// walk goes into each real folder (device and inode) once, however many names lead to it: a
// second name for a folder already walked is stored as an empty folder. The walk stops with
// ErrArchiveTooLarge at the node's extraction limit on entries (a zip Kiln makes can always be
// unpacked by Kiln), before anything is written, and lets the event loop go every few hundred
// entries, so the node keeps answering while a large folder is listed.
import type { Stats } from "node:fs";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { FolderReader } from "./folder-reader";
import { statPath } from "./operations";
import { DEFAULT_EXTRACT_LIMITS, tooLarge, type ExtractLimits } from "./extract-limits";

/** Entries read between two turns of the event loop (each an lstat, a link's also a stat). */
const ENTRIES_PER_TURN = 500;

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
 * entry (and what is under it) by its path (the server's fileDenylist). ErrArchiveTooLarge when
 * there are more than `limits.maxEntries`.
 */
export async function collectSources(
  jail: Jail,
  folder: string,
  sources: string[],
  skip: (path: string) => boolean = () => false,
  limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS,
): Promise<SourceEntry[]> {
  const walk = new Walk(jail, skip, limits);
  for (const source of sources) {
    const path = jail.normalize(source);
    const stats = followed(jail, path, statPath(jail, path, false));
    if (!stats) continue;
    const name = path === folder ? "" : folder === "" || path.startsWith(`${folder}/`) ? path.slice(folder ? folder.length + 1 : 0) : posix.basename(path);
    await walk.add({ name, path, stats });
  }
  return walk.entries;
}

class Walk {
  readonly entries: SourceEntry[] = [];
  private readonly names = new Set<string>();
  /** Real folders (device:inode) already walked, for the whole archive: each is walked once. */
  private readonly walked = new Set<string>();
  private read = 0;

  constructor(
    private readonly jail: Jail,
    private readonly skip: (path: string) => boolean,
    private readonly limits: ExtractLimits,
  ) {}

  /** `first` and everything under it, depth first, each folder's entries in the order it keeps them. */
  async add(first: SourceEntry): Promise<void> {
    const stack = [first];
    for (let entry = stack.pop(); entry; entry = stack.pop()) {
      if (entry.name && this.names.has(entry.name)) continue;
      if (this.skip(entry.path)) continue;
      if (entry.name) {
        if (this.entries.length === this.limits.maxEntries) throw tooLarge(this.limits);
        this.names.add(entry.name);
        this.entries.push(entry);
      }
      if (!entry.stats.isDirectory()) continue;
      const id = `${entry.stats.dev}:${entry.stats.ino}`;
      if (this.walked.has(id)) continue;
      this.walked.add(id);
      const children = await this.children(entry);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }

  /** A folder's files and folders (links followed inside), read a page at a time, no more than the archive may still hold. */
  private async children(parent: SourceEntry): Promise<SourceEntry[]> {
    // Every entry or a refusal: a zip that silently leaves a file out is a lost file.
    const reader = new FolderReader(this.jail, parent.path, true, true);
    const children: SourceEntry[] = [];
    try {
      for (let child = reader.read(); child; child = reader.read()) {
        if (++this.read % ENTRIES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
        const stats = child.stats.isSymbolicLink() ? (child.target === child.stats ? undefined : child.target) : child.stats;
        if (!stats || !(stats.isFile() || stats.isDirectory())) continue;
        const path = parent.path ? `${parent.path}/${child.name}` : child.name;
        if (this.skip(path)) continue;
        // Each of these ends in the archive (or is there already), so one huge folder is refused
        // as soon as it holds more than the archive may, not after it was read whole.
        if (children.length === this.limits.maxEntries) throw tooLarge(this.limits);
        children.push({ name: parent.name ? `${parent.name}/${child.name}` : child.name, path, stats });
      }
    } finally {
      reader.close();
    }
    return children;
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
