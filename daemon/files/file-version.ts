// Which version of a file the node holds, as HTTP validators name it: the strong entity tag a GET
// answers beside Last-Modified (RFC 9110 §8.8.3), which a write sends back in If-Match so that it
// never replaces a version its sender has not seen (./write-conditions). It is made of what
// changes whenever the bytes can have changed: the file's identity (device and inode: a file
// written atomically, by the node or an editor, is a new inode) and its size and modification
// time to the nanosecond (a write in place, as the game rewrites server.properties). Hashed, so no
// inode number of the host is shown; the same file unchanged always gets the same tag.
import { createHash } from "node:crypto";
import { closeSync, fstatSync, type BigIntStats } from "node:fs";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { O_PATH } from "./openat2";

export interface FileVersion {
  /** the strong entity tag, quoted as the ETag header carries it */
  etag: string;
  /** the modification time in whole seconds since the epoch: what Last-Modified can say */
  modifiedSeconds: number;
}

const NS_PER_SECOND = 1_000_000_000n;

function versionOf(stats: BigIntStats): FileVersion {
  const identity = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
  return { etag: `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`, modifiedSeconds: Number(stats.mtimeNs / NS_PER_SECOND) };
}

/** The version of the file open on `fd`. */
export function descriptorVersion(fd: number): FileVersion {
  return versionOf(fstatSync(fd, { bigint: true }));
}

/**
 * The version of what is at `path` now, followed as a read follows it (a link inside leads to its
 * file), or null when nothing is there. Opened O_PATH: nothing is read, a FIFO does not block.
 */
export function currentVersion(jail: Jail, path: string): FileVersion | null {
  let fd: number;
  try {
    fd = jail.open(path, O_PATH);
  } catch (error) {
    if (error instanceof KilnError && error.code === "ErrNotFound") return null;
    throw error;
  }
  try {
    return descriptorVersion(fd);
  } finally {
    closeSync(fd);
  }
}
