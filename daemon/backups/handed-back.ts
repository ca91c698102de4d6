// What of a snapshot a backup's download or restore hands back to the server's users. Backups run
// as the node (root, outside the sandbox), so restic reads files the server's own user could not:
//
// - A regular file with more than one name, not owned by the server's user, is never handed back.
//   A hard link is the same file under another name, which may be outside the server's folder: a
//   process on the node (or the server itself before it had its own user, or on a host with
//   fs.protected_hardlinks off) can give /etc/shadow or the node's secret a name in the folder.
//   The kernel lets an unprivileged user link only files it owns (protected_hardlinks), so a
//   server's own hard links (a package store, say) are its own files and are kept; one owned by
//   anyone else is the sign of a link it could not have made itself. Which other names a file had
//   is not in the snapshot (restic keeps only their number), so ownership is what is judged. On a
//   node that is not root every file has the node's owner: there the sandbox's own mounts are the
//   guard (link(2) across mounts fails with EXDEV).
// - The template's fileDenylist holds as for the file API: denied entries are left out of a
//   download; a single-path restore that would write one is refused (daemon/files/denylist).
//   A whole restore puts the folder back as it was, the template's files included.
import { KilnError } from "../../core/errors";
import { zipEntryName } from "../../core/files/zip-name";
import type { FileDenylist, TreeEntry } from "../files/denylist";
import { Jail } from "../files/jail";
import { removePath } from "../files/operations";
import type { Restic } from "./restic";
import { snapshotFiles, type SnapshotFile } from "./snapshot-files";

export interface SnapshotVerdict {
  /** Files with another name and another owner: left out of downloads and restores. */
  foreign: Set<string>;
  /** Entries the fileDenylist denies: left out of downloads. */
  denied: Set<string>;
  /** Whether some name holds a character a zip must write otherwise (core/files/zip-name). */
  oddNames: boolean;
  /** With `under`: the entries beneath that path, relative to it ("" is the path itself). */
  beneath: TreeEntry[];
}

export interface Judge {
  denylist: FileDenylist;
  /** The uid of the server's user (the node's own when servers do not get one). */
  uid: number;
  /** A single path being restored: its entries are listed in `beneath`. */
  under?: string;
}

/** Whether a file of a snapshot may never be handed back (see above). */
export function isForeign(file: SnapshotFile, uid: number): boolean {
  return file.type === "file" && file.links > 1 && file.uid !== uid;
}

export async function judgeSnapshot(restic: Restic, snapshotId: string, judge: Judge): Promise<SnapshotVerdict> {
  const verdict: SnapshotVerdict = { foreign: new Set(), denied: new Set(), oddNames: false, beneath: [] };
  const under = judge.under;
  for await (const file of snapshotFiles(restic, snapshotId)) {
    if (isForeign(file, judge.uid)) {
      // A name restic could not write as UTF-8 cannot be matched again in what it dumps or restores.
      if (file.path.includes("\uFFFD")) throw new KilnError("ErrPathOutside", { path: file.path }, `${file.path} is a hard link, which may lead outside the server's folder`);
      verdict.foreign.add(file.path);
    }
    if (judge.denylist.denies(file.path, file.type === "dir")) verdict.denied.add(file.path);
    if (zipEntryName(file.path) !== file.path) verdict.oddNames = true;
    if (under !== undefined && (file.path === under || file.path.startsWith(`${under}/`))) verdict.beneath.push({ rel: file.path.slice(under.length + 1), folder: file.type === "dir" });
  }
  return verdict;
}

/**
 * A single-path restore's own checks, before anything is restored: the path must be in the
 * snapshot (ErrNotFound), not a file that is never handed back (ErrPathOutside), and neither it
 * nor anything beneath it may land on a denied name, as the snapshot names it or where the path
 * leads in the folder now (ErrFileDenied).
 */
export function checkOnePath(jail: Jail, denylist: FileDenylist, path: string, verdict: SnapshotVerdict): void {
  if (verdict.beneath.length === 0) throw new KilnError("ErrNotFound", { path }, "the backup does not hold that path");
  if (verdict.foreign.has(path)) throw new KilnError("ErrPathOutside", { path }, `${path} is a hard link, which may lead outside the server's folder`);
  denylist.checkLanding(jail, path, verdict.beneath);
}

/**
 * Removes from a restore's staging folder (the node's own until it is swapped in) the files that
 * are never handed back, those beneath `under` for a single path. One that is not there (a name
 * restic listed otherwise than it restored it) fails the restore rather than slip through.
 */
export function leaveOutStaged(staging: string, foreign: ReadonlySet<string>, under?: string): void {
  if (foreign.size === 0) return;
  const jail = new Jail(staging);
  for (const path of foreign) {
    if (under !== undefined && path !== under && !path.startsWith(`${under}/`)) continue;
    try {
      removePath(jail, path);
    } catch (error) {
      if (error instanceof KilnError && error.code === "ErrNotFound") throw new KilnError("ErrPathOutside", { path }, `${path} is a hard link, which may lead outside the server's folder`);
      throw error;
    }
  }
}
