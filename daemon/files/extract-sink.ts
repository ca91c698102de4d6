// Where every archive reader puts its entries: a fresh staging folder, reached only through the
// jail. The sink owns the rules all formats share: entry names are checked before anything is
// written, nothing is ever written through a symbolic link the archive made (that is how an
// archive would plant "link -> .." and then "link/evil"), and the bytes and entries are counted
// against the limits as they are written, never as the archive declares them.
import { fsPath } from "./fs-path";
import { closeSync, constants, futimesSync, linkSync, lstatSync, symlinkSync, unlinkSync, writeSync } from "node:fs";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import { outside, type Jail } from "./jail";
import { O_NOFOLLOW } from "./openat2";
import { makeFolder } from "./operations";
import { checkLinkTarget, entryPath } from "./extract-names";
import { tooLarge, type ExtractLimits } from "./extract-limits";
import { brokenArchive } from "./extract-errors";
import { chargeWrite } from "./quota";

/** A file being written; the reader calls write for each chunk, then close (or abort on failure). */
export interface FileOut {
  write(chunk: Uint8Array): void;
  close(mtime?: Date): void;
  abort(): void;
}

/** What an archive reader hands its entries to: the staging sink, or a preview that only notes them. */
export interface EntrySink {
  count(): void;
  /**
   * The number of entries the archive says it holds (a zip's directory), before any is read: more
   * than the limit is refused at once. Only a refusal trusts it: count() still counts each entry.
   */
  declared(total: number): void;
  folder(name: string): void;
  file(name: string, mode: number): FileOut;
  symlink(name: string, target: string): void;
  hardlink(name: string, target: string): void;
}

export class ExtractSink implements EntrySink {
  private bytes = 0;
  private entries = 0;
  /** Symbolic links this archive created, by entry path: nothing may be written through them. */
  private readonly links = new Set<string>();
  /** Folders already made, so a thousand files in one folder do not walk its path a thousand times. */
  private readonly folders = new Set<string>();

  constructor(
    private readonly jail: Jail,
    /** The staging folder, jail-relative. */
    private readonly staging: string,
    private readonly limits: ExtractLimits,
    /** How errors name the archive. */
    private readonly archive: string,
  ) {}

  /** Every entry counts, even one that is skipped, so millions of empty entries are a bomb too. */
  count(): void {
    if (++this.entries > this.limits.maxEntries) throw tooLarge(this.limits);
  }

  declared(total: number): void {
    if (total > this.limits.maxEntries) throw tooLarge(this.limits);
  }

  folder(name: string): void {
    const path = this.checked(name);
    if (path) this.makeFolder(path);
  }

  file(name: string, mode: number): FileOut {
    const path = this.checked(name);
    if (!path) throw outside(name);
    this.makeParent(path);
    this.clear(path);
    const fd = this.jail.open(this.inStaging(path), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, fileMode(mode));
    let open = true;
    const close = () => {
      if (open) closeSync(fd);
      open = false;
    };
    return {
      write: (chunk) => {
        // A closed descriptor's number may already belong to another file.
        if (!open) throw new Error(`${path} is already closed`);
        // Refused before the chunk is written: never more than maxBytes reach the disk.
        if (this.bytes + chunk.byteLength > this.limits.maxBytes) throw tooLarge(this.limits);
        // The server's disk space caps it too (the staging folder is removed on refusal).
        chargeWrite(this.jail, chunk.byteLength);
        this.bytes += chunk.byteLength;
        for (let offset = 0; offset < chunk.byteLength; ) offset += writeSync(fd, chunk, offset);
      },
      close: (mtime) => {
        try {
          if (open && mtime && !Number.isNaN(mtime.getTime())) futimesSync(fd, mtime, mtime);
        } finally {
          close();
        }
      },
      abort: close,
    };
  }

  symlink(name: string, target: string): void {
    const path = this.checked(name);
    if (!path) throw outside(name);
    checkLinkTarget(path, target);
    this.makeParent(path);
    this.clear(path);
    this.jail.at(this.inStaging(path), (entry) => {
      symlinkSync(fsPath(target), entry); // the bytes the jail judged, as the entry's own name is
      this.jail.own(entry);
    });
    this.links.add(path);
  }

  /** A hard link to an earlier entry, named from the archive's root like tar does. */
  hardlink(name: string, target: string): void {
    const path = this.checked(name);
    const source = entryPath(target);
    if (!path || !source) throw outside(`${name} => ${target}`);
    // The OS would follow a symbolic link on the way to the source; the source itself may not be one either.
    if (this.throughLink(source) || this.links.has(source)) throw outside(`${name} => ${target}`);
    this.makeParent(path);
    this.clear(path);
    try {
      this.jail.at(this.inStaging(source), (from) => this.jail.at(this.inStaging(path), (to) => linkSync(from, to)));
    } catch (error) {
      // The source must be an earlier file of the archive; anything else is a broken archive.
      const code = (error as { code?: string }).code;
      if (code === "ENOENT" || code === "EPERM" || code === "ErrNotFound") throw brokenArchive(this.archive, new Error(`${name} links to ${target}, which the archive does not hold before it`));
      throw error;
    }
  }

  /** The entry's path, refused when it is spelled outside or passes through a link of this archive. */
  private checked(name: string): string {
    const path = entryPath(name);
    if (this.throughLink(path)) throw outside(name);
    return path;
  }

  private throughLink(path: string): boolean {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) if (this.links.has(parts.slice(0, i).join("/"))) return true;
    return false;
  }

  private makeParent(path: string): void {
    const parent = posix.dirname(path);
    if (parent !== ".") this.makeFolder(parent);
  }

  private makeFolder(path: string): void {
    if (this.folders.has(path)) return;
    makeFolder(this.jail, this.inStaging(path));
    this.folders.add(path);
  }

  /** Archives may name an entry twice (tar appends): the later one wins, but never replaces a folder. */
  private clear(path: string): void {
    this.jail.at(this.inStaging(path), (entry) => {
      let isFolder: boolean;
      try {
        isFolder = lstatSync(entry).isDirectory();
      } catch {
        return; // nothing there
      }
      if (isFolder) throw new KilnError("ErrFileExists", { path }, `the archive holds ${path} as a folder and as a file`);
      unlinkSync(entry);
    });
    this.links.delete(path);
  }

  private inStaging(path: string): string {
    return `${this.staging}/${path}`;
  }
}

/** Permission bits only: no set-user-ID or sticky bits from an archive; owner may always read and write. */
function fileMode(mode: number): number {
  return (mode & 0o777) | 0o600;
}
