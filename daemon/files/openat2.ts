// openat2(2) with RESOLVE_BENEATH, through bun:ffi. The kernel resolves every component of the
// path (".." and symlinks included, at the moment of the call) and refuses with EXDEV when any
// step would leave the starting folder, so there is no window between a check and the use.
// Linux 5.6 and later; elsewhere `beneathAvailable` is false and the jail uses its slower walk.
import { dlopen, FFIType, ptr, read } from "bun:ffi";
import { closeSync, constants, openSync } from "node:fs";
import { bytesFromName } from "../../core/files/raw-name";

const SYS_OPENAT2: Record<string, bigint> = { x64: 437n, arm64: 437n };
const RESOLVE_NO_MAGICLINKS = 0x02;
const RESOLVE_BENEATH = 0x08;

export const O_PATH = 0o10000000;
export const O_DIRECTORY = constants.O_DIRECTORY;
export const O_NOFOLLOW = constants.O_NOFOLLOW;
const O_CLOEXEC = 0o2000000;

type Libc = {
  symbols: {
    syscall: (nr: bigint, dirfd: number, path: unknown, how: unknown, size: bigint) => bigint | number;
    __errno_location: () => unknown;
  };
};

function loadLibc(): Libc | null {
  if (process.platform !== "linux" || !SYS_OPENAT2[process.arch]) return null;
  try {
    return dlopen("libc.so.6", {
      syscall: { args: [FFIType.i64, FFIType.i32, FFIType.ptr, FFIType.ptr, FFIType.u64], returns: FFIType.i64 },
      __errno_location: { args: [], returns: FFIType.ptr },
    }) as unknown as Libc;
  } catch {
    return null;
  }
}

const libc = loadLibc();

/** An error shaped like the ones node:fs throws, so callers can look at `code`. */
export class ErrnoError extends Error {
  constructor(
    readonly errno: number,
    readonly code: string,
    path: string,
  ) {
    super(`${code}: openat2 ${path}`);
  }
}

const CODES: Record<number, string> = { 1: "EPERM", 2: "ENOENT", 11: "EAGAIN", 13: "EACCES", 17: "EEXIST", 18: "EXDEV", 20: "ENOTDIR", 21: "EISDIR", 22: "EINVAL", 28: "ENOSPC", 36: "ENAMETOOLONG", 38: "ENOSYS", 40: "ELOOP" };

/**
 * EAGAIN: while a path with ".." in it was resolved beneath the root, something on the machine
 * renamed or mounted (any process, any folder: the kernel watches the whole system), so it could
 * not be sure ".." did not lead out, and asks for the call again. A server's process renaming in
 * a loop makes it common; the call is tried again, as the kernel advises, before giving up.
 */
const EAGAIN = 11;
const EAGAIN_TRIES = 64;

function rawOpenat2(dirfd: number, path: string, flags: number, mode: number): number {
  // The kernel refuses a mode unless the call may create the file.
  const how = new BigUint64Array([BigInt(flags | O_CLOEXEC), BigInt(flags & constants.O_CREAT ? mode : 0), BigInt(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)]);
  // The path's exact bytes (a name that is not UTF-8 arrives escaped: core/files/raw-name).
  const name = Buffer.concat([bytesFromName(path), Buffer.of(0)]);
  let errno = EAGAIN;
  for (let attempt = 0; attempt < EAGAIN_TRIES && errno === EAGAIN; attempt++) {
    const fd = Number(libc!.symbols.syscall(SYS_OPENAT2[process.arch]!, dirfd, ptr(name), ptr(how), 24n));
    if (fd >= 0) return fd;
    errno = read.i32(libc!.symbols.__errno_location() as never, 0);
  }
  throw new ErrnoError(errno, CODES[errno] ?? `E${errno}`, path);
}

function probe(): boolean {
  if (!libc) return false;
  const root = openSync("/", O_PATH | O_DIRECTORY);
  try {
    closeSync(rawOpenat2(root, ".", O_PATH, 0));
    return true;
  } catch {
    return false;
  } finally {
    closeSync(root);
  }
}

export const beneathAvailable = probe();

/**
 * Opens `path` (relative) beneath the folder `root`; flags as for open(2). Throws ErrnoError:
 * EXDEV when the path, or a symlink on the way, leads out of `root`.
 */
export function openBeneath(root: string, path: string, flags: number, mode = 0): number {
  const rootFd = openSync(root, O_PATH | O_DIRECTORY);
  try {
    return rawOpenat2(rootFd, path === "" ? "." : path, flags, mode);
  } finally {
    closeSync(rootFd);
  }
}
