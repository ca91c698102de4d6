// Moving a file between a server's folder and the node's journal of a change (./journals). A rename
// when both are on one filesystem: the entry itself moves, a link as a link, nothing is read. When
// they are not (the servers' folders on a disk of their own), the bytes are copied, and a copy by
// name would follow a link the server's own process planted at either end: root would read a host
// file into the journal, or write the journal's bytes onto one. So the copy goes by descriptors:
// the server's side is opened through the jail (beneath the folder, its last name never followed,
// O_CREAT|O_EXCL for the new file, handed to the server's user), only a regular file with one
// name is read (a hard link may be a host file's other name), and anything else is refused.
import { closeSync, constants, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import type { FsPath } from "../files/fs-path";
import type { Jail } from "../files/jail";
import { checkedRegular } from "../files/open-regular";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;
const CHUNK = 1024 * 1024;

/** Moves what is at `path` (from the server's folder) to `kept`, a new name in the journal. */
export function moveOut(jail: Jail, path: string, kept: string): void {
  jail.at(path, (entry) => {
    if (renamed(entry, kept)) return;
    // O_NONBLOCK: a FIFO opens at once (and is refused below) rather than waiting for a writer.
    const source = checkedRegular(jail.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK), path);
    try {
      copyTo(source.fd, openSync(kept, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, (source.stats.mode & 0o777) | 0o600), () => unlinkSync(kept));
    } finally {
      closeSync(source.fd);
    }
    unlinkSync(entry);
  });
}

/** Moves the journal's `kept` back to `path` in the server's folder, in place of whatever is there. */
export function moveIn(kept: string, jail: Jail, path: string): void {
  jail.at(path, (entry) => {
    if (renamed(kept, entry)) return;
    const source = checkedRegular(openSync(kept, O_RDONLY | O_NOFOLLOW), path);
    try {
      // What is there (a link included: removed, never followed) gives way, as a rename replaces it.
      try {
        unlinkSync(entry);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
      copyTo(source.fd, jail.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, source.stats.mode & 0o777), () => jail.at(path, (made) => unlinkSync(made)));
    } finally {
      closeSync(source.fd);
    }
    unlinkSync(kept);
  });
}

/** Renames `from` to `to`: true when done, false when they are on different filesystems. */
function renamed(from: FsPath, to: FsPath): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EXDEV") return false;
    throw error;
  }
}

/** Copies `source` into the new file `target` (closed after); a failure removes the new file with `drop`. */
function copyTo(source: number, target: number, drop: () => void): void {
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (let read = readSync(source, buffer, 0, CHUNK, null); read > 0; read = readSync(source, buffer, 0, CHUNK, null)) {
      for (let written = 0; written < read; ) written += writeSync(target, buffer, written, read - written);
    }
  } catch (error) {
    closeSync(target);
    drop();
    throw error;
  }
  closeSync(target);
}
