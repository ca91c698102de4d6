// A server folder worth backing up, made fast: a few big files of random bytes (nothing for
// restic to deduplicate or compress) and many small ones, like a game world's region files and
// its configs.
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

const MIB = 1024 * 1024;

/** Writes about `mib` MiB: 90% in `bigFiles` files, the rest in `smallFiles` files of equal size. Returns the bytes written. */
export function writeBackupData(dir: string, mib: number, bigFiles = 4, smallFiles = 1000): number {
  const big = Math.floor((mib * MIB * 0.9) / bigFiles);
  const small = Math.floor((mib * MIB * 0.1) / smallFiles);
  mkdirSync(join(dir, "world", "region"), { recursive: true });
  mkdirSync(join(dir, "config"), { recursive: true });
  for (let i = 0; i < bigFiles; i++) writeFileSync(join(dir, "world", "region", `r.${i}.mca`), randomBytes(big));
  for (let i = 0; i < smallFiles; i++) writeFileSync(join(dir, "config", `c${i}.json`), randomBytes(small));
  return big * bigFiles + small * smallFiles;
}

/** Changes about `mib` MiB: rewrites that much in the middle of the first big file. */
export function changeBackupData(dir: string, mib: number): void {
  const file = join(dir, "world", "region", "r.0.mca");
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, randomBytes(mib * MIB), 0, mib * MIB, 4 * MIB);
  } finally {
    closeSync(fd);
  }
}
