// The first entries of a folder in a server's folder, never more than asked for. readdir (and
// Bun's opendir, which reads the whole folder at open) costs as much as the folder holds, and the
// server's users can put a million entries anywhere; getdents64(2) on a descriptor the jail opened
// reads one buffer at a time, so the cost ends with the limit. Entry types come from the kernel
// (d_type) without following anything.
import { dlopen, FFIType, ptr } from "bun:ffi";
import { closeSync, constants, lstatSync, readdirSync, type Stats } from "node:fs";
import type { Jail } from "../files/jail";

export type EntryKind = "file" | "folder" | "link" | "other";
export interface DirName {
  name: string;
  kind: EntryKind;
}

/** How many entries one look at a folder reads, at most. */
export const MAX_DIR_ENTRIES = 1000;

const SYS_GETDENTS64: Record<string, bigint> = { x64: 217n, arm64: 61n };
const BUFFER_BYTES = 32 * 1024;
const DT_DIR = 4;
const DT_REG = 8;
const DT_LNK = 10;
const DT_UNKNOWN = 0;

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

/**
 * Up to `limit` entries of the folder `path` (jail-relative), in the order the file system keeps
 * them; null when it is not a folder inside the jail. "." and ".." are left out.
 */
export function dirNames(jail: Jail, path: string, limit = MAX_DIR_ENTRIES): DirName[] | null {
  let fd: number;
  try {
    fd = jail.open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    return libc ? getdents(fd, limit) : fallback(fd, limit);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function getdents(fd: number, limit: number): DirName[] {
  const buffer = new Uint8Array(BUFFER_BYTES);
  const view = Buffer.from(buffer.buffer);
  const entries: DirName[] = [];
  while (entries.length < limit) {
    const bytes = Number(libc!.symbols.syscall(SYS_GETDENTS64[process.arch]!, fd, ptr(buffer), BigInt(BUFFER_BYTES)));
    if (bytes < 0) throw new Error("getdents64 failed");
    if (bytes === 0) break;
    // struct linux_dirent64: u64 d_ino, s64 d_off, u16 d_reclen, u8 d_type, char d_name[] (NUL-ended).
    for (let at = 0; at < bytes && entries.length < limit; ) {
      const length = view.readUInt16LE(at + 16);
      if (length === 0) break;
      const type = view[at + 18]!;
      const end = view.indexOf(0, at + 19);
      const name = view.toString("utf8", at + 19, end < 0 || end > at + length ? at + length : end);
      at += length;
      if (name === "." || name === "..") continue;
      entries.push({ name, kind: type === DT_UNKNOWN ? kindOf(fd, name) : kindOfType(type) });
    }
  }
  return entries;
}

function kindOfType(type: number): EntryKind {
  return type === DT_REG ? "file" : type === DT_DIR ? "folder" : type === DT_LNK ? "link" : "other";
}

/** Some file systems leave d_type unknown: lstat the entry itself (never followed). */
function kindOf(fd: number, name: string): EntryKind {
  let stats: Stats;
  try {
    stats = lstatSync(`/proc/self/fd/${fd}/${name}`);
  } catch {
    return "other";
  }
  return stats.isFile() ? "file" : stats.isDirectory() ? "folder" : stats.isSymbolicLink() ? "link" : "other";
}

/** Without getdents64 through FFI (not Linux): readdir, cut to the limit. */
function fallback(fd: number, limit: number): DirName[] {
  return readdirSync(`/proc/self/fd/${fd}`).slice(0, limit).map((name) => ({ name, kind: kindOf(fd, name) }));
}
