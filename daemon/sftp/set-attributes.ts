// SETSTAT and FSETSTAT: size, permissions and times. Always on a descriptor the jail opened, so
// a symlink swapped in meanwhile cannot point the change at something outside the folder.
//
// A size that grows a file is charged against the server's disk space by what it adds, before
// anything changes (refused with ErrDiskQuotaExceeded, as a write past the limit is): ftruncate
// makes a hole that takes no block, so the disk measurement would never see it, but a backup of
// the file restores every byte of its size, and a copy writes them.
import { chmodSync, closeSync, fchmodSync, fstatSync, ftruncateSync, futimesSync, truncateSync, utimesSync } from "node:fs";
import type { Attributes } from "ssh2";
import type { Jail } from "../files/jail";
import { O_PATH } from "../files/openat2";
import { chargeWrite, refundWrite } from "../files/quota";
import { refuseRootMode } from "../files/mode";
import { SftpRefusal, STATUS_CODE } from "./status";

/**
 * Only the permission bits: setuid, setgid and sticky would let a file in the server's folder run
 * as the node's user for whoever can execute it.
 */
const PERMISSION_BITS = 0o777;

/** Changes an open file. The client's uid/gid are ignored: everything here belongs to the node's user. */
export function setAttributesOfFd(jail: Jail, fd: number, attrs: Partial<Attributes>): void {
  if (typeof attrs.size === "number") resize(jail, fstatSync(fd).size, attrs.size, () => ftruncateSync(fd, attrs.size));
  if (typeof attrs.mode === "number") fchmodSync(fd, attrs.mode & PERMISSION_BITS);
  if (typeof attrs.atime === "number" && typeof attrs.mtime === "number") futimesSync(fd, attrs.atime, attrs.mtime);
}

/**
 * Changes a path (followed through symlinks that stay inside). The file is opened O_PATH beneath
 * the root and changed through its /proc/self/fd link, which names that very inode: this works for
 * folders and for files the node may not read, where a read or write descriptor could not be had.
 * A file with more than one name (a hard link, maybe to a file outside) is not changed.
 */
export function setAttributesOfPath(jail: Jail, path: string, attrs: Partial<Attributes>): void {
  const fd = jail.open(path, O_PATH);
  const self = `/proc/self/fd/${fd}`;
  try {
    const stats = fstatSync(fd);
    if (!stats.isDirectory() && stats.nlink > 1) throw new SftpRefusal(STATUS_CODE.PERMISSION_DENIED, "Permission denied");
    // The file manager's rule: the server's folder keeps the mode the node gave it.
    if (typeof attrs.mode === "number") refuseRootMode(jail, fd, path);
    if (typeof attrs.size === "number") resize(jail, stats.isFile() ? stats.size : attrs.size, attrs.size, () => truncateSync(self, attrs.size));
    if (typeof attrs.mode === "number") chmodSync(self, attrs.mode & PERMISSION_BITS);
    if (typeof attrs.atime === "number" && typeof attrs.mtime === "number") utimesSync(self, attrs.atime, attrs.mtime);
  } finally {
    closeSync(fd);
  }
}

/** Sets a file's size from `current` to `size`, the growth charged first and given back if the change fails. */
function resize(jail: Jail, current: number, size: number, truncate: () => void): void {
  const growth = Math.max(0, size - current);
  chargeWrite(jail, growth);
  try {
    truncate();
  } catch (error) {
    refundWrite(jail, growth);
    throw error;
  }
}
