// A folder read a few entries at a time, for listings of folders of any size (SFTP's READDIR, the
// file API's listing). readdir, and Bun's opendir (which reads the whole folder at its first read),
// cost as much as the folder holds, at once, on the node's one thread, and the server's own
// process can put a million entries in a folder; getdents64(2) on a descriptor the jail opened
// reads one small buffer at a time, so what a reader holds between two reads is the names of one
// buffer, and each read costs only the entries it hands out. The descriptor stays open until the
// reader is closed: the folder listed is the one opened (beneath the root) however its path
// changes meanwhile, and entries made or removed while it is read may or may not be seen, as
// readdir(3) says.
import { closeSync, constants, fstatSync, lstatSync, readdirSync, type Stats } from "node:fs";
import { KilnError } from "../../core/errors";
import { isText, nameFromBytes } from "../../core/files/raw-name";
import { fsPath } from "./fs-path";
import type { Jail } from "./jail";
import { O_PATH } from "./openat2";
import { getdentsAvailable, readDirents } from "./getdents";

/**
 * A name the kernel holds that is not UTF-8 text is listed, and reached, by its wire form
 * (core/files/raw-name). A walk that copies, zips or judges a folder would carry that form into
 * what it makes (a zip's entry names, another folder's names), so such a folder is refused
 * (ErrNameNotText) rather than handled by a name that is not the file's; listings show it. A name
 * that is text holding characters of the escapes' own range is text, and is walked like any other
 * (its wire form is escapes, its text is what ./zip-entries writes).
 */
export function unreachableName(name: string, folder: string): KilnError | null {
  return !isText(name) ? new KilnError("ErrNameNotText", { path: folder || "/" }, `${folder || "the server's folder"} holds a name that is not UTF-8 text`) : null;
}

/** One entry: its lstat (a symlink is itself) and, when asked for, what a symlink leads to. */
export interface FolderEntry {
  name: string;
  stats: Stats;
  /** What a symlink leads to (only when it stays inside the folder), else the entry itself; with `targets` only. */
  target: Stats;
}

/**
 * Bytes of names one getdents64 call reads: at most about 170 entries (the shortest names), which
 * is what a reader may hold between two reads (an SFTP page is 128 entries).
 */
const BUFFER_BYTES = 4096;
/** Shared by every reader: each call parses what it read into names before it returns. */
const buffer = new Uint8Array(BUFFER_BYTES);

export class FolderReader {
  /** Names read from the kernel and not handed out yet (one buffer's worth at most). */
  private names: string[] = [];
  private next = 0;
  private ended = false;
  private fd: number | null;

  /**
   * Opens the folder `path` (jail-relative, links followed inside) for reading: ErrNotFound when
   * it is not a folder, ErrPathOutside when it leads out. `targets`: each entry that is a symlink
   * also gets what it leads to (through the jail), as the file API lists it.
   */
  constructor(
    private readonly jail: Jail,
    readonly path: string,
    private readonly targets = false,
    /** refuse (ErrNameNotText) rather than skip a name that is not text: a walk that must see every entry */
    private readonly whole = false,
  ) {
    try {
      this.fd = jail.open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK);
    } catch (error) {
      // As readdir's refusals were: anything but leading out is "not a folder".
      if (error instanceof KilnError && error.code === "ErrPathOutside") throw error;
      throw new KilnError("ErrNotFound", { path }, `${path} is not a folder`);
    }
    if (!getdentsAvailable) {
      // Without getdents64 through FFI (not Linux on x64 or arm64): readdir, whole, as before.
      this.names = readdirSync(`/proc/self/fd/${this.fd}`, { encoding: "buffer" }).map(nameFromBytes);
      this.ended = true;
    }
  }

  /** The next entry, or null at the end. An entry gone between the read and its lstat is skipped. */
  read(): FolderEntry | null {
    for (;;) {
      const name = this.nextName();
      if (name === null) return null;
      const refusal = this.whole ? unreachableName(name, this.path) : null;
      if (refusal) throw refusal;
      let stats: Stats;
      try {
        stats = lstatSync(fsPath(`/proc/self/fd/${this.fd}/${name}`));
      } catch {
        continue; // gone meanwhile
      }
      const target = this.targets && stats.isSymbolicLink() ? (linkTarget(this.jail, this.path, name) ?? stats) : stats;
      return { name, stats, target };
    }
  }

  close(): void {
    if (this.fd === null) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = null;
    this.names = [];
    this.ended = true;
  }

  private nextName(): string | null {
    while (this.next >= this.names.length) {
      if (this.ended || this.fd === null) return null;
      this.fill();
    }
    return this.names[this.next++]!;
  }

  /** One getdents64 call: the names of one buffer, or the end. */
  private fill(): void {
    this.next = 0;
    let read;
    try {
      read = readDirents(this.fd!, buffer);
    } catch {
      throw new KilnError("ErrNotFound", { path: this.path }, `${this.path} could not be read`);
    }
    this.names = read?.map((entry) => entry.name) ?? [];
    if (read === null) this.ended = true;
  }
}

/** Where a symlink leads, through the jail: undefined when it leads outside or nowhere. */
export function linkTarget(jail: Jail, folder: string, name: string): Stats | undefined {
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
