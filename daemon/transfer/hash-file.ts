// SHA-256 of a regular file in a server's folder, read through the jail (openRegularFile: no FIFO
// that would block, no hard link that may name a host file) with asynchronous reads, so hashing a
// large world never holds the node's one thread. Both ends of a transfer hash with this.
import { closeSync, fstatSync, read, type BigIntStats } from "node:fs";
import { createHash } from "node:crypto";
import type { Jail } from "../files/jail";
import { openRegularFile } from "../files/open-regular";

const CHUNK_BYTES = 1024 * 1024;

export interface HashedFile {
  /** The bytes read (the file as it was while it was read). */
  size: number;
  sha256: string;
  /** The nine permission bits. */
  mode: number;
}

/**
 * Hashes the file at `path`; `tick` is called after every chunk (the source keeps its answer alive
 * with it). `cache`, when given, maps what identifies a file's content to its hash: see key().
 */
export async function hashFile(jail: Jail, path: string, tick: () => void = () => undefined, cache?: Map<string, string>): Promise<HashedFile> {
  const { fd } = openRegularFile(jail, path);
  try {
    const stats = fstatSync(fd, { bigint: true });
    const mode = Number(stats.mode & 0o777n);
    const known = cache?.get(key(stats));
    if (known !== undefined) return { size: Number(stats.size), sha256: known, mode };
    const hash = createHash("sha256");
    let size = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      const bytes = await new Promise<number>((resolve, reject) => read(fd, buffer, 0, CHUNK_BYTES, size, (error, n) => (error ? reject(error) : resolve(n))));
      if (bytes === 0) break;
      hash.update(buffer.subarray(0, bytes));
      size += bytes;
      tick();
    }
    const sha256 = hash.digest("hex");
    // Only what was read whole and unchanged meanwhile is remembered.
    const after = fstatSync(fd, { bigint: true });
    if (cache && BigInt(size) === after.size && key(after) === key(stats)) cache.set(key(stats), sha256);
    return { size, sha256, mode };
  } finally {
    closeSync(fd);
  }
}

/** The inode with its size and its modification and change times to the nanosecond: any write or chmod moves one. */
function key(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}
