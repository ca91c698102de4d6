// getdents64(2) through bun:ffi: a folder's entries one buffer at a time on a descriptor the jail
// opened. readdir, and Bun's opendir (which reads the whole folder at its first read), cost as
// much as the folder holds, at once, and a server's users can put a million entries in a folder;
// this reads only as far as its caller asks. Linux on x64 and arm64; elsewhere `getdentsAvailable`
// is false and callers read the folder whole.
import { dlopen, FFIType, ptr } from "bun:ffi";
import { nameFromBytes } from "../../core/files/raw-name";

const SYS_GETDENTS64: Record<string, bigint> = { x64: 217n, arm64: 61n };

type Libc = { symbols: { syscall: (nr: bigint, fd: number, buffer: unknown, size: bigint) => bigint | number } };

function loadLibc(): Libc | null {
  if (process.platform !== "linux" || !SYS_GETDENTS64[process.arch]) return null;
  try {
    return dlopen("libc.so.6", { syscall: { args: [FFIType.i64, FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64 } }) as unknown as Libc;
  } catch {
    return null;
  }
}

const libc = loadLibc();

export const getdentsAvailable = libc !== null;

/** d_type values: the kernel's word for what an entry is, without following anything (0: the file system did not say). */
export const DIRENT_TYPE = { unknown: 0, folder: 4, file: 8, link: 10 } as const;

export interface Dirent {
  name: string;
  type: number;
}

/**
 * The entries of one getdents64 call into `buffer` ("." and ".." left out), or null at the end of
 * the folder; throws when the call fails. Needs getdentsAvailable.
 */
export function readDirents(fd: number, buffer: Uint8Array): Dirent[] | null {
  const bytes = Number(libc!.symbols.syscall(SYS_GETDENTS64[process.arch]!, fd, ptr(buffer), BigInt(buffer.byteLength)));
  if (bytes < 0) throw new Error("getdents64 failed");
  if (bytes === 0) return null;
  const view = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const entries: Dirent[] = [];
  // struct linux_dirent64: u64 d_ino, s64 d_off, u16 d_reclen, u8 d_type, char d_name[] (NUL-ended).
  for (let at = 0; at < bytes; ) {
    const length = view.readUInt16LE(at + 16);
    if (length === 0) break;
    const type = view[at + 18]!;
    const end = view.indexOf(0, at + 19);
    // The wire form of the name's bytes: one that is not UTF-8 keeps them (core/files/raw-name).
    const name = nameFromBytes(view.subarray(at + 19, end < 0 || end > at + length ? at + length : end));
    at += length;
    if (name !== "." && name !== "..") entries.push({ name, type });
  }
  return entries;
}
