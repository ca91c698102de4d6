// Opens a regular file for reading through the jail without ever blocking. open(2) of a FIFO
// for reading waits for a writer, and a FIFO is something anyone with the server's files (SFTP,
// the game itself) can make: opened plainly, it would stall the daemon's one thread for good.
// O_NONBLOCK makes that open return at once (it changes nothing for regular files), and the
// descriptor is refused unless it is a regular file.
//
// A regular file with more than one name is refused too: a hard link is the same file under
// another name, and nothing tells whether that other name is inside the server's folder. A
// process on the node can make one to a host file (say /etc/shadow when the node runs as root),
// and reading it here would hand that file to anyone with viewServerFiles. (Hard links an
// archive unpacks inside the folder are refused alike: the price of never reading a host file.)
import { closeSync, constants, fstatSync, type Stats } from "node:fs";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";

export function openRegularFile(jail: Jail, path: string): { fd: number; stats: Stats } {
  return checkedRegular(jail.open(path, constants.O_RDONLY | constants.O_NONBLOCK), path);
}

/** `fd` (opened from `path`) when it is a regular file with one name; closed and refused otherwise. */
export function checkedRegular(fd: number, path: string): { fd: number; stats: Stats } {
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (!stats.isFile()) {
    closeSync(fd);
    throw new KilnError("ErrNotFound", { path }, `${path} is not a file`);
  }
  if (stats.nlink > 1) {
    closeSync(fd);
    throw new KilnError("ErrPathOutside", { path }, `${path} is a hard link, which may lead outside the server's folder`);
  }
  return { fd, stats };
}

/**
 * `read` with the file opened as openRegularFile opens it, closed afterwards; null when it cannot be
 * opened (missing, outside, not a regular file, a hard link) or `read` throws: for readers to whom
 * a file that cannot be read is a file that is not there.
 */
export function withRegularFile<T>(jail: Jail, path: string, read: (opened: { fd: number; stats: Stats }) => T): T | null {
  let opened: { fd: number; stats: Stats };
  try {
    opened = openRegularFile(jail, path);
  } catch {
    return null;
  }
  try {
    return read(opened);
  } catch {
    return null;
  } finally {
    closeSync(opened.fd);
  }
}
