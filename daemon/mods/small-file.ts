// Small reads of a server's folder for telling what the server is, each one bounded and each one
// through the jail: a file is opened with openRegularFile (beneath the root, no FIFO, no device,
// no hard link), a symlink is read as text and never followed. Anything odd makes the read answer
// null: a signal that cannot be read is a signal that is not there.
import { closeSync, fstatSync, lstatSync, readlinkSync, readSync } from "node:fs";
import type { Jail } from "../files/jail";
import { withRegularFile } from "../files/open-regular";
import { O_PATH } from "../files/openat2";

/** The most a text signal (version_history.json, run.sh, a launcher's .properties) is read. */
export const MAX_TEXT_BYTES = 4096;

/** The text of a regular file of at most `max` bytes; null when larger, missing, outside or not a file. */
export function readSmallText(jail: Jail, path: string, max = MAX_TEXT_BYTES): string | null {
  return withRegularFile(jail, path, ({ fd, stats }) => {
    if (stats.size > max) return null;
    const buffer = Buffer.alloc(max + 1);
    const bytes = readSync(fd, buffer, 0, buffer.length, 0);
    // Grown since the stat: still too large.
    return bytes > max ? null : buffer.toString("utf8", 0, bytes);
  });
}

/** What a symlink says (its text, not followed); null when `path` is not a symlink. */
export function readLinkText(jail: Jail, path: string): string | null {
  try {
    return jail.at(path, (entry) => (lstatSync(entry).isSymbolicLink() ? readlinkSync(entry) : null));
  } catch {
    return null;
  }
}

/** Whether `path` is there as a file or a folder (a link is followed only while it stays inside). */
export function kindAt(jail: Jail, path: string): "file" | "folder" | null {
  let fd: number;
  try {
    // O_PATH opens nothing for reading, so a FIFO cannot block it (and openat2 refuses other flags with it).
    fd = jail.open(path, O_PATH);
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    return stats.isFile() ? "file" : stats.isDirectory() ? "folder" : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
