// What of a snapshot a backup's download or restore hands back to the server's users. Backups run
// as the node (root, outside the sandbox), so restic reads files the server's own user could not:
//
// - Only what the server's own user could have put in its folder is handed back: a regular file,
//   a folder or a symbolic link owned by the server's uid. Anything else the snapshot records (a
//   file, folder or link of root's or of another uid, a named pipe, a socket, a device) is left
//   out, and so is everything beneath a folder that is left out; the node's log says so. restic
//   opens every file by its path, so a server that swaps a folder of its own for a link to a host
//   folder between restic's look and its open (renameat2 RENAME_EXCHANGE, in a loop) had restic
//   store the host file (/etc/shadow, the node's secret, another server's files) under the
//   server's name; such a file keeps its owner in the snapshot, which is how it is told apart.
//   restic reads in a view where such a link leads nowhere besides (./backup-view): this is the
//   fence that holds should a link lead somewhere still. What the node itself made in the folder
//   is the server's user's before each backup (BackupService.backup hands it over, as a start
//   does), so files an install step or an administrator left there are kept.
// - This covers hard links too: a regular file with more than one name, not owned by the
//   server's user, may be a host file given a name in the folder (by a process on the node, or
//   the server before it had its own user, or on a host with fs.protected_hardlinks off). The
//   kernel lets an unprivileged user link only files it owns, so a server's own hard links (a
//   package store, say) are its own files and are kept. Which other names a file had is not in
//   the snapshot (restic keeps only their number), so ownership is what is judged. On a node that
//   is not root every file has the node's owner: there the sandbox's own mounts and restic's view
//   are the guard (link(2) across mounts fails with EXDEV).
// - The template's fileDenylist holds as for the file API: denied entries are left out of a
//   download; a single-path restore that would write one is refused (daemon/files/denylist).
//   A whole restore puts the folder back as it was, the template's files included.
import { KilnError } from "../../core/errors";
import { nameFromText } from "../../core/files/raw-name";
import { zipEntryName } from "../../core/files/zip-name";
import type { FileDenylist, TreeEntry } from "../files/denylist";
import { Jail } from "../files/jail";
import { removePath } from "../files/operations";
import type { Restic } from "./restic";
import { snapshotFiles, type SnapshotFile } from "./snapshot-files";

export interface SnapshotVerdict {
  /** Entries that are not the server's own (see above), and all beneath such a folder: left out of downloads and restores. */
  foreign: Set<string>;
  /** Entries the fileDenylist denies: left out of downloads. */
  denied: Set<string>;
  /** Whether some name holds a character a zip must write otherwise (core/files/zip-name). */
  oddNames: boolean;
  /** With `under`: the entries beneath that path, relative to it ("" is the path itself), in wire form (as the denylist judges). */
  beneath: TreeEntry[];
  /** The first few entries left out as not the server's own, with their kind and owner, for the node's log. */
  foreignSeen: string[];
}

export interface Judge {
  denylist: FileDenylist;
  /** The uid of the server's user (the node's own when servers do not get one). */
  uid: number;
  /** A single path being restored: its entries are listed in `beneath`. */
  under?: string;
}

/** The kinds of entry a server's own user can make in its folder. */
const OWN_KINDS = new Set(["file", "dir", "symlink"]);
/** How many of the entries left out the node's log names. */
const SEEN_MAX = 5;

/** Whether an entry of a snapshot is not the server's own, and so never handed back (see above). */
export function isForeign(file: SnapshotFile, uid: number): boolean {
  return !OWN_KINDS.has(file.type) || file.uid !== uid;
}

/** Why an entry is never handed back, as an error says it. */
const NOT_OWN = "is not the server's own (another owner's file, or a kind of entry the server cannot make), which may have come from outside its folder";

export async function judgeSnapshot(restic: Restic, snapshotId: string, judge: Judge): Promise<SnapshotVerdict> {
  const verdict: SnapshotVerdict = { foreign: new Set(), denied: new Set(), oddNames: false, beneath: [], foreignSeen: [] };
  const under = judge.under;
  // Folders left out: restic lists a folder before what it holds, so what lies beneath one is left out with it.
  const foreignFolders = new Set<string>();
  for await (const file of snapshotFiles(restic, snapshotId)) {
    if (isForeign(file, judge.uid) || beneathAny(file.path, foreignFolders)) {
      // A name restic could not write as UTF-8 cannot be matched again in what it dumps or restores.
      if (file.path.includes("\uFFFD")) throw new KilnError("ErrPathOutside", { path: file.path }, `${file.path} ${NOT_OWN}`);
      verdict.foreign.add(file.path);
      if (file.type === "dir") foreignFolders.add(file.path);
      if (verdict.foreignSeen.length < SEEN_MAX) verdict.foreignSeen.push(`${JSON.stringify(file.path)} (${file.type}, uid ${file.uid})`);
    }
    // restic lists names as text; the denylist judges wire names (core/files/raw-name).
    if (judge.denylist.denies(nameFromText(file.path), file.type === "dir")) verdict.denied.add(file.path);
    if (zipEntryName(file.path) !== file.path) verdict.oddNames = true;
    if (under !== undefined && (file.path === under || file.path.startsWith(`${under}/`))) verdict.beneath.push({ rel: nameFromText(file.path.slice(under.length + 1)), folder: file.type === "dir" });
  }
  return verdict;
}

/** Whether `path` lies beneath one of `folders`. */
function beneathAny(path: string, folders: ReadonlySet<string>): boolean {
  if (folders.size === 0) return false;
  for (let at = path.indexOf("/"); at > 0; at = path.indexOf("/", at + 1)) if (folders.has(path.slice(0, at))) return true;
  return false;
}

/**
 * A single-path restore's own checks, before anything is restored: the path must be in the
 * snapshot (ErrNotFound), not an entry that is never handed back (ErrPathOutside), and neither it
 * nor anything beneath it may land on a denied name, as the snapshot names it or where the path
 * leads in the folder now (ErrFileDenied). `listed` is the path as restic's listing names it
 * (./one-path), what the verdict was made by.
 */
export function checkOnePath(jail: Jail, denylist: FileDenylist, path: string, verdict: SnapshotVerdict, listed = path): void {
  if (verdict.beneath.length === 0) throw new KilnError("ErrNotFound", { path }, "the backup does not hold that path");
  if (verdict.foreign.has(listed)) throw new KilnError("ErrPathOutside", { path }, `${path} ${NOT_OWN}`);
  denylist.checkLanding(jail, path, verdict.beneath);
}

/**
 * Removes from a restore's staging folder (the node's own until it is swapped in) the entries that
 * are never handed back, those beneath `under` for a single path (a folder goes with all it holds).
 * One that is not there (a name restic listed otherwise than it restored it) fails the restore
 * rather than slip through.
 */
export function leaveOutStaged(staging: string, foreign: ReadonlySet<string>, under?: string): void {
  if (foreign.size === 0) return;
  const jail = new Jail(staging);
  const removed = new Set<string>();
  for (const path of foreign) {
    if (under !== undefined && path !== under && !path.startsWith(`${under}/`)) continue;
    if (beneathAny(path, removed)) continue;
    try {
      // restic's text, taken to the wire name it is (core/files/raw-name): "x\uEF80" as written
      // would be the raw byte 0x80, another file, and this one would be handed back.
      removePath(jail, nameFromText(path));
      removed.add(path);
    } catch (error) {
      if (error instanceof KilnError && error.code === "ErrNotFound") throw new KilnError("ErrPathOutside", { path }, `${path} ${NOT_OWN}`);
      throw error;
    }
  }
}
