// The one filesystem jail of a server's folder, used by install steps, the file API, the socket
// and SFTP alike. A path from outside is refused when it holds a NUL byte, is absolute, or climbs
// out with ".."; everything else is opened by the kernel with openat2(RESOLVE_BENEATH), which
// refuses any component, symlinks included, that would lead out of the folder at that moment.
//
// `open`, `at` and `inFolder` hand out descriptors or /proc/self/fd paths of folders the kernel
// opened beneath the root, so nothing can be swapped between the check and the use. Every file
// operation (file API, SFTP, install and task steps) works through those. `resolve` and friends
// return plain paths, checked the same way but used afterwards by name: only for what must hand
// a name to a process (an environment's working folder), never to read or write a file.
import { closeSync, constants, fchownSync, fstatSync, lchownSync, openSync, realpathSync } from "node:fs";
import { join, posix, resolve, relative, sep } from "node:path";
import { KilnError } from "../../core/errors";
import { canonicalName, nameFromBytes } from "../../core/files/raw-name";
import { fsPath, type FsPath } from "./fs-path";
import { beneathAvailable, ErrnoError, openBeneath, O_DIRECTORY, O_PATH } from "./openat2";
import { realExisting } from "./real-existing";

export class Jail {
  readonly root: string;

  constructor(root: string) {
    this.root = realExisting(resolve(root));
  }

  /**
   * The path relative to the root, "/"-separated, "" for the root itself. Refuses NUL bytes,
   * absolute paths and ".." that climbs above the root, by spelling; symlinks are the kernel's job.
   * The answer is the path's one spelling (core/files/raw-name: escapes of bytes that are text
   * become that text), so what is judged by name afterwards (the denylist) sees the file's name.
   */
  normalize(asked: string): string {
    const path = canonicalName(asked);
    if (path.includes("\0") || path.startsWith("/")) throw outside(path);
    const normal = posix.normalize(path === "" ? "." : path).replace(/\/+$/, "");
    if (normal === ".." || normal.startsWith("../")) throw outside(path);
    return normal === "." ? "" : normal;
  }

  /**
   * The server's own user when the node runs as root (see daemon/environment/server-user.ts):
   * what the node creates here is handed to it, so the server can change it.
   */
  owner: { uid: number; gid: number } | null = null;

  /** A descriptor for `path` opened beneath the root with open(2) `flags`; the caller closes it. */
  open(path: string, flags: number, mode = 0o644): number {
    const normal = this.normalize(path);
    let fd: number;
    if (!beneathAvailable) fd = openSync(fsPath(this.resolve(normal)), flags, mode);
    else {
      try {
        fd = openBeneath(this.root, normal, flags, mode);
      } catch (error) {
        throw translate(error, path);
      }
    }
    if (this.owner && flags & constants.O_CREAT) this.ownOpened(fd);
    return fd;
  }

  /** Hands an entry the node just made (a folder or a link, named as `at` gives it) to the server's user. */
  own(entry: FsPath): void {
    if (this.owner) lchownSync(entry, this.owner.uid, this.owner.gid);
  }

  /** A file the node created (one link: never a hard link to something elsewhere) goes to the server's user. */
  private ownOpened(fd: number): void {
    const stats = fstatSync(fd);
    if (stats.uid === process.getuid?.() && stats.nlink <= 1) fchownSync(fd, this.owner!.uid, this.owner!.gid);
  }

  /**
   * Runs `fn` with a path that names the last component of `path` inside its parent folder,
   * the parent held open beneath the root. The last component is not followed, so `fn` may
   * create, remove, rename or lstat it (a symlink is the link itself). Async `fn`s are awaited
   * before the folder is closed. The entry is a Buffer when its name stands for bytes that are
   * not UTF-8 (core/files/raw-name), so it is handed to node:fs as it is, never taken apart.
   */
  at<T>(path: string, fn: (entry: FsPath) => T): T {
    const normal = this.normalize(path);
    if (normal === "") throw new KilnError("ErrNoPermission", { path }, "the server's folder itself cannot be used here");
    const name = posix.basename(normal);
    if (!beneathAvailable) return fn(fsPath(join(this.resolve(posix.dirname(normal)), name)));
    const fd = this.open(posix.dirname(normal), O_PATH | O_DIRECTORY);
    return withClose(fd, () => fn(fsPath(`/proc/self/fd/${fd}/${name}`)));
  }

  /** Runs `fn` with a path to the folder `path` (followed, and beneath the root), held open meanwhile. */
  inFolder<T>(path: string, fn: (folder: string) => T): T {
    const normal = this.normalize(path);
    if (!beneathAvailable) return fn(this.resolve(normal));
    const fd = this.open(normal, O_PATH | O_DIRECTORY);
    return withClose(fd, () => fn(`/proc/self/fd/${fd}`));
  }

  /**
   * The absolute path of `path` inside the jail, for callers that need a name (environments). The deepest part of it that exists is opened beneath the root; the rest does
   * not exist yet and, by spelling, cannot climb out. The path is not followed: when it names a
   * symlink (pointing inside), the answer names the link itself.
   */
  resolve(path: string): string {
    const normal = this.normalize(path);
    const full = normal ? join(this.root, normal) : this.root;
    if (!beneathAvailable) {
      if (!this.contains(realExisting(full))) throw outside(path);
      return full;
    }
    let probe = normal;
    for (;;) {
      try {
        closeSync(openBeneath(this.root, probe, O_PATH));
        return full;
      } catch (error) {
        const code = (error as ErrnoError).code;
        if ((code !== "ENOENT" && code !== "ENOTDIR") || probe === "") throw translate(error, path);
        probe = posix.dirname(probe) === "." ? "" : posix.dirname(probe);
      }
    }
  }

  /**
   * For deleting an entry: the parent folder is resolved through the jail and the last part is
   * not followed, so a symlink, even one pointing out of the folder, names the link itself.
   */
  resolveEntry(path: string): string {
    const normal = this.normalize(path);
    if (normal === "") return this.root;
    return join(this.resolve(posix.dirname(normal)), posix.basename(normal));
  }

  /**
   * Where something the node holds open really is, relative to the root: `held` is a path from
   * `at` or `inFolder`, or /proc/self/fd/N of a descriptor `open` gave. The kernel answers for the
   * descriptor itself, so links on the way it was opened by are already followed.
   */
  realRelative(held: string, path: string): string {
    let real: string;
    try {
      // As bytes: a folder whose name is not UTF-8 keeps its own name (core/files/raw-name).
      real = nameFromBytes(realpathSync.native(held, { encoding: "buffer" }));
    } catch (error) {
      throw translate(error, path);
    }
    if (!this.contains(real)) throw outside(path);
    return this.relative(real);
  }

  /**
   * Whether `path` (relative to the root, spelled as given: ".." is not folded by spelling) stays
   * beneath the root when the kernel follows it, links and ".." in the order they come, as it
   * would follow a symlink with that target. The part that does not exist yet cannot be followed,
   * so it may not climb with "..".
   */
  leadsInside(path: string): boolean {
    if (path.includes("\0") || path.startsWith("/")) return false;
    const parts = path.split("/").filter((part) => part !== "" && part !== ".");
    for (let existing = parts.length; existing >= 0; existing--) {
      const prefix = parts.slice(0, existing).join("/");
      try {
        if (beneathAvailable) closeSync(openBeneath(this.root, prefix, O_PATH));
        else if (!this.contains(realpathSync.native(prefix ? `${this.root}/${prefix}` : this.root))) return false;
      } catch (error) {
        const code = (error as ErrnoError).code;
        if (code === "ENOENT" || code === "ENOTDIR") continue;
        if (code === "EXDEV" || code === "ELOOP") return false;
        throw error;
      }
      return !parts.slice(existing).includes("..");
    }
    return false;
  }

  /** The path relative to the jail's root, "/"-separated, as shown to users. */
  relative(full: string): string {
    return relative(this.root, full).split(sep).join("/");
  }

  contains(full: string): boolean {
    return full === this.root || full.startsWith(this.root + sep);
  }
}

export function outside(path: string): KilnError {
  return new KilnError("ErrPathOutside", { path }, `path is outside the server's folder: ${path}`);
}

/** The kernel's answers as catalogue errors: leaving the folder, or nothing there. */
function translate(error: unknown, path: string): unknown {
  const code = (error as ErrnoError).code;
  if (code === "EXDEV" || code === "ELOOP") return outside(path);
  if (code === "ENOENT" || code === "ENOTDIR") return new KilnError("ErrNotFound", { path }, `not found: ${path}`);
  return error;
}

function withClose<T>(fd: number, fn: () => T): T {
  let result: T;
  try {
    result = fn();
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => closeSync(fd)) as T;
  closeSync(fd);
  return result;
}
