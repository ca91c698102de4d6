// SFTP's OPEN flags as open(2) flags.
import { constants } from "node:fs";
import { OPEN_MODE } from "./protocol";

/**
 * open(2) flags for SFTP `pflags`, or null when the client asked for neither reading nor writing.
 * O_NONBLOCK always: a FIFO someone made in the folder must not hang the daemon on open; anything
 * that is not a regular file is refused right after.
 */
export function openFlags(pflags: number): number | null {
  const read = (pflags & OPEN_MODE.READ) !== 0;
  const write = (pflags & OPEN_MODE.WRITE) !== 0 || (pflags & OPEN_MODE.APPEND) !== 0;
  if (!read && !write) return null;
  let flags = read && write ? constants.O_RDWR : write ? constants.O_WRONLY : constants.O_RDONLY;
  if (pflags & OPEN_MODE.CREAT) flags |= constants.O_CREAT;
  if (pflags & OPEN_MODE.TRUNC) flags |= constants.O_TRUNC;
  if (pflags & OPEN_MODE.EXCL) flags |= constants.O_EXCL;
  if (pflags & OPEN_MODE.APPEND) flags |= constants.O_APPEND;
  return flags | constants.O_NONBLOCK | constants.O_NOCTTY;
}

/** True when an OPEN could change the file system: writing, appending, creating or truncating. */
export function opensForChange(pflags: number): boolean {
  return (pflags & (OPEN_MODE.WRITE | OPEN_MODE.APPEND | OPEN_MODE.CREAT | OPEN_MODE.TRUNC | OPEN_MODE.EXCL)) !== 0;
}
