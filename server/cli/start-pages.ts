// Starting runs much of Bun's machine code and of Kiln's bytecode once (the module loader, the
// bytecode's first run, every service's set-up) and never again. Those pages of the executable stay
// resident until the kernel runs short of memory: an idle node held 48 MB, 40 of them the
// executable's. A second after the process is serving, they are handed back with
// madvise(MADV_PAGEOUT), and a page needed again is read back from the executable on first use, as
// at start: the idle node then holds 19 MB, and 33 MB once it has answered its panel.
// Only read-only mappings of the executable itself are given, so nothing is lost, and the kernel
// leaves pages that other processes share alone. Where it cannot be done (a kernel older than 5.4,
// no glibc) the process goes on exactly as before.
import { readFileSync, readlinkSync } from "node:fs";

const SETTLE_MS = 1000;
const MADV_PAGEOUT = 21;

/** After SETTLE_MS, drops the executable's pages that starting touched; never throws. */
export function dropStartPagesSoon(): void {
  setTimeout(() => void dropStartPages().catch(() => undefined), SETTLE_MS).unref();
}

/** The executable's read-only mappings from /proc/self/maps, as [start, length] pairs. */
export function executableMappings(maps: string, executable: string): Array<[bigint, bigint]> {
  const ranges: Array<[bigint, bigint]> = [];
  for (const line of maps.split("\n")) {
    // start-end perms offset device inode path; a path may hold spaces (" (deleted)").
    const fields = /^([0-9a-f]+)-([0-9a-f]+)\s+(\S+)\s+\S+\s+\S+\s+\S+\s+(.+)$/.exec(line.trim());
    if (!fields || fields[4] !== executable || fields[3]!.includes("w")) continue;
    const start = BigInt(`0x${fields[1]}`);
    const end = BigInt(`0x${fields[2]}`);
    if (end > start) ranges.push([start, end - start]);
  }
  return ranges;
}

/** Drops the executable's pages this process alone maps now (the rest stay); may throw where it cannot be done. */
export async function dropStartPages(): Promise<void> {
  if (process.platform !== "linux") return;
  const ranges = executableMappings(readFileSync("/proc/self/maps", "utf8"), readlinkSync("/proc/self/exe"));
  if (ranges.length === 0) return;
  const { dlopen, FFIType } = await import("bun:ffi");
  const libc = dlopen("libc.so.6", { madvise: { args: [FFIType.u64, FFIType.u64, FFIType.i32], returns: FFIType.i32 } });
  try {
    for (const [start, length] of ranges) libc.symbols.madvise(start, length, MADV_PAGEOUT);
  } finally {
    libc.close();
  }
}
