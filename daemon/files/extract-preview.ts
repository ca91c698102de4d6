// What extracting an archive into a folder would do, before it is done (the file manager's
// Extract dialog): the archive is read by the same readers, name rules and limits as a real
// extraction, but nothing is written; each entry is then looked up where it would land, through
// the jail and without following links, to say which existing files it would replace (as
// ./extract-place does: a file or link gives way, a folder is merged) and which it cannot (a file
// of the archive where the destination has a folder: the extraction would be refused).
import { closeSync, lstatSync } from "node:fs";
import { posix } from "node:path";
import type { ExtractPreview } from "../../core/files";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { outside } from "./jail";
import { O_DIRECTORY, O_PATH } from "./openat2";
import { openRegularFile } from "./open-regular";
import { archiveKind, checkLinkTarget, entryPath } from "./extract-names";
import { readGz } from "./extract-gz";
import { tooLarge, type ExtractLimits } from "./extract-limits";
import type { EntrySink, FileOut } from "./extract-sink";

/** At most this many paths are named in each list (the counts are whole). */
export const PREVIEW_LISTED = 100;

export async function previewExtract(jail: Jail, archive: string, destination: string, limits: ExtractLimits): Promise<ExtractPreview> {
  const kind = archiveKind(archive);
  const dest = jail.normalize(destination);
  const destinationExists = folderExists(jail, dest);
  const name = posix.basename(jail.normalize(archive));
  const { fd, stats } = openRegularFile(jail, archive);
  const sink = new PreviewSink(limits);
  try {
    if (kind === "zip") await (await import("./extract-zip")).readZip(fd, sink, name);
    else if (kind === "gz") await readGz(fd, stats.mode & 0o777, sink, name);
    else await (await import("./extract-tar")).readTar(fd, kind === "tgz", sink, name);
  } finally {
    closeSync(fd);
  }
  const overwrites: string[] = [];
  const conflicts: string[] = [];
  if (destinationExists) {
    for (const [path, isFolder] of sink.entries) {
      const target = dest ? `${dest}/${path}` : path;
      const existing = lstatOrNothing(jail, target);
      if (!existing) continue;
      if (existing.isDirectory() && !isFolder) conflicts.push(target);
      else if (!existing.isDirectory()) overwrites.push(target);
    }
  }
  overwrites.sort();
  conflicts.sort();
  return { destination: dest, destinationExists, entries: sink.entries.size, overwrites: overwrites.slice(0, PREVIEW_LISTED), overwriteCount: overwrites.length, conflicts: conflicts.slice(0, PREVIEW_LISTED) };
}

/** Notes every entry's path (true for a folder), counting entries and bytes against the limits; writes nothing. */
class PreviewSink implements EntrySink {
  readonly entries = new Map<string, boolean>();
  private count_ = 0;
  private bytes = 0;

  constructor(private readonly limits: ExtractLimits) {}

  count(): void {
    if (++this.count_ > this.limits.maxEntries) throw tooLarge(this.limits);
  }

  declared(total: number): void {
    if (total > this.limits.maxEntries) throw tooLarge(this.limits);
  }

  folder(name: string): void {
    const path = entryPath(name);
    if (path) this.note(path, true);
  }

  file(name: string): FileOut {
    const path = entryPath(name);
    if (!path) throw outside(name);
    this.note(path, false);
    return {
      write: (chunk) => {
        this.bytes += chunk.byteLength;
        if (this.bytes > this.limits.maxBytes) throw tooLarge(this.limits);
      },
      close: () => undefined,
      abort: () => undefined,
    };
  }

  symlink(name: string, target: string): void {
    const path = entryPath(name);
    if (!path) throw outside(name);
    checkLinkTarget(path, target);
    this.note(path, false);
  }

  hardlink(name: string, target: string): void {
    const path = entryPath(name);
    if (!path || !entryPath(target)) throw outside(`${name} => ${target}`);
    this.note(path, false);
  }

  /** An entry, and the folders it lies in (an archive need not list them). */
  private note(path: string, isFolder: boolean): void {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join("/");
      if (!this.entries.has(parent)) this.entries.set(parent, true);
    }
    this.entries.set(path, isFolder);
  }
}

function folderExists(jail: Jail, path: string): boolean {
  try {
    closeSync(jail.open(path, O_PATH | O_DIRECTORY));
    return true;
  } catch (error) {
    // A folder to be made; one that leads out is refused as the extraction would be.
    if (error instanceof KilnError && error.code === "ErrNotFound") return false;
    throw error;
  }
}

function lstatOrNothing(jail: Jail, path: string) {
  try {
    return jail.at(path, (entry) => lstatSync(entry));
  } catch {
    return undefined;
  }
}
