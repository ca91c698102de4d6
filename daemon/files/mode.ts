// Changing a file's or folder's permission bits (the file manager's chmod). Only the nine
// rwx bits: setuid, setgid and sticky would let a file in the server's folder run as its owner
// for whoever can execute it, so a mode asking for them is refused (not quietly trimmed, so the
// user sees what was not done). The entry is opened O_PATH beneath the root and changed through
// its /proc/self/fd link, which names that very inode (as SFTP's SETSTAT does), so a link swapped
// in meanwhile cannot turn the change onto a file outside. A file with more than one name (a
// hard link, maybe to a host file) is refused, as for downloads.
import { chmodSync, closeSync, fstatSync } from "node:fs";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { O_PATH } from "./openat2";

const PERMISSION_BITS = 0o777;

/** A mode as users write it ("755", "0644") or as a number; ErrFileModeInvalid for anything else. */
export function parseMode(value: unknown): number {
  const mode = typeof value === "number" && Number.isInteger(value) ? value : typeof value === "string" && /^[0-7]{3,4}$/.test(value.trim()) ? parseInt(value.trim(), 8) : NaN;
  if (!Number.isInteger(mode) || mode < 0 || (mode & ~PERMISSION_BITS) !== 0) throw new KilnError("ErrFileModeInvalid", { mode: String(value) }, `not a permission mode from 000 to 777: ${String(value)}`);
  return mode;
}

/**
 * ErrNoPermission when `fd` (a descriptor the jail opened for `path`) is the server's folder
 * itself, however it was named ("", ".", "/", a link to it): the folder's mode is the node's to
 * set (made for the server's user and no one else), not a user's, through any door (the file
 * manager's chmod, SFTP's SETSTAT and FSETSTAT). Judged on the descriptor, not the spelling.
 */
export function refuseRootMode(jail: Jail, fd: number, path: string): void {
  if (jail.realRelative(`/proc/self/fd/${fd}`, path) === "") throw new KilnError("ErrNoPermission", { path }, "the server's folder itself keeps its mode");
}

export function changeMode(jail: Jail, path: string, mode: number): void {
  const fd = jail.open(path, O_PATH);
  try {
    refuseRootMode(jail, fd, path);
    const stats = fstatSync(fd);
    if (!stats.isDirectory() && stats.nlink > 1) throw new KilnError("ErrPathOutside", { path }, `${path} is a hard link, which may lead outside the server's folder`);
    try {
      chmodSync(`/proc/self/fd/${fd}`, mode & PERMISSION_BITS);
    } catch (error) {
      if ((error as { code?: string }).code === "EPERM") throw new KilnError("ErrNoPermission", { path }, `the node may not change ${path}`);
      throw error;
    }
  } finally {
    closeSync(fd);
  }
}
