// What users and steps do to a server's files (file API, socket, SFTP, install and task steps):
// every step goes through the jail's descriptors, so a symlink created meanwhile (by SFTP, the
// game, anyone) cannot redirect it. Whole files (uploads, archives made, downloads and files
// written by steps) all go through writeAtomically.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, renameSync, rmdirSync, symlinkSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import { fsPath, heldFolder, type FsPath } from "./fs-path";
import { outside, type Jail } from "./jail";
import { O_DIRECTORY, O_NOFOLLOW, O_PATH } from "./openat2";
import { partialName } from "./partial-file";
import { chargeWrite, refundWrite } from "./quota";
import { removeContents } from "./remove-tree";

/** stat of `path`: followed through symlinks (inside only), or the entry itself with `follow` false. */
export function statPath(jail: Jail, path: string, follow = true): Stats {
  if (!follow && jail.normalize(path) !== "") return jail.at(path, (entry) => lstatOrMissing(entry, path));
  const fd = jail.open(path, O_PATH);
  try {
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
}

function lstatOrMissing(entry: FsPath, path: string): Stats {
  try {
    return lstatSync(entry);
  } catch {
    throw new KilnError("ErrNotFound", { path }, `not found: ${path}`);
  }
}

/** Creates a folder and any missing parents; an existing folder is fine. */
export function makeFolder(jail: Jail, path: string): void {
  const parts = jail.normalize(path).split("/").filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join("/");
    jail.at(prefix, (entry) => {
      try {
        mkdirSync(entry);
        jail.own(entry);
      } catch (error) {
        if ((error as { code?: string }).code !== "EEXIST") throw error;
        if (!statPath(jail, prefix).isDirectory()) throw new KilnError("ErrFileExists", { path: prefix }, `${prefix} exists and is not a folder`);
      }
    });
  }
}

/** Removes a file, a symlink (never what it points to) or a whole folder. */
export function removePath(jail: Jail, path: string): void {
  const normal = jail.normalize(path);
  if (normal === "") throw new KilnError("ErrNoPermission", { path }, "the server's folder itself cannot be deleted");
  const stats = statPath(jail, normal, false);
  if (stats.isDirectory()) {
    // Below the folder the jail opened, by the names' bytes (./remove-tree): a name that is not
    // UTF-8 is removed too, and a child swapped for a link is removed as a link.
    jail.inFolder(normal, (folder) => removeContents(folder));
    jail.at(normal, (entry) => rmdirSync(entry));
  } else {
    jail.at(normal, (entry) => unlinkSync(entry));
  }
}

/** Renames inside the folder; the target's parent must exist. */
export function renamePath(jail: Jail, from: string, to: string): void {
  statPath(jail, from, false);
  jail.at(from, (source) => jail.at(to, (target) => renameSync(source, target)));
}

/**
 * Creates a symlink at `path` pointing to `target`. Only relative targets that stay inside the
 * folder are allowed: a link out would be followed by the server's own process, which is not
 * jailed. The target is judged as the kernel will follow it, from the folder the link really
 * lands in (held open, its own path as the kernel knows it), links and ".." in order: judged by
 * spelling, `L -> d2/s/..` looks like "d2", yet with `d2/s -> ..` it leads above the root.
 */
export function makeSymlink(jail: Jail, target: string, path: string): void {
  const normal = jail.normalize(path);
  if (target === "" || target.startsWith("/") || target.includes("\0")) throw outside(target);
  jail.at(normal, (entry) => {
    const folder = jail.realRelative(heldFolder(entry), path);
    if (!jail.leadsInside(folder ? `${folder}/${target}` : target)) throw outside(target);
    // The target's bytes, as leadsInside judged them (a name that is not UTF-8 is spelled with escapes).
    symlinkSync(fsPath(target), entry);
    jail.own(entry);
  });
}

/**
 * Writes a whole file from `chunks` atomically: into a hidden temporary file beside it (named by
 * ./partial-file, which also clears what a crash left), renamed over the target only when
 * everything arrived. A failed or cut-off upload leaves no file
 * behind, and readers never see half a file. Memory holds one chunk at a time.
 */
export async function writeAtomically(jail: Jail, path: string, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, mode = 0o644): Promise<number> {
  const normal = jail.normalize(path);
  if (normal === "") throw new KilnError("ErrNoPermission", { path }, "the server's folder itself cannot be written");
  const existing = tryStat(jail, normal);
  if (existing?.isDirectory()) throw new KilnError("ErrFileExists", { path }, `${path} is a folder`);
  const folder = posix.dirname(normal) === "." ? "" : posix.dirname(normal);
  const temp = `${folder ? `${folder}/` : ""}${partialName(posix.basename(normal))}`;
  const fd = jail.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, existing ? existing.mode & 0o7777 : mode);
  let written = 0;
  try {
    try {
      for await (const chunk of chunks) {
        chargeWrite(jail, chunk.byteLength);
        for (let offset = 0; offset < chunk.byteLength; ) offset += writeSync(fd, chunk, offset);
        written += chunk.byteLength;
      }
    } finally {
      closeSync(fd);
    }
    renamePath(jail, temp, normal);
    return written;
  } catch (error) {
    try {
      jail.at(temp, (entry) => unlinkSync(entry));
      refundWrite(jail, written);
    } catch {
      // already gone
    }
    throw error;
  }
}

function tryStat(jail: Jail, path: string): Stats | undefined {
  try {
    return statPath(jail, path);
  } catch (error) {
    if (error instanceof KilnError && error.code === "ErrNotFound") return undefined;
    throw error;
  }
}

/** Whether `path` is a folder (followed, inside). */
export function isFolder(jail: Jail, path: string): boolean {
  try {
    const fd = jail.open(path, O_PATH | O_DIRECTORY);
    closeSync(fd);
    return true;
  } catch {
    return false;
  }
}
