// Hands what the node made in a server's folder to the server's own user (see
// daemon/environment/server-user.ts) before any of the server's processes runs. The walk goes
// through the jail like every other file operation: each folder is opened beneath the root (a
// link is never walked into), and each entry is changed through a descriptor of the very file
// that was checked, so a folder swapped for a link out, or a name swapped for another file,
// cannot turn the change onto a host file. A regular file with more than one name is left
// alone: it may be a hard link to a file outside (one the node owns, say), which a chown would
// hand to the server just the same. Only folders and files are handed over: the node makes no
// other kind of entry (SFTP's own links are handed over when made).
import { nameFromBytes } from "../../core/files/raw-name";
import { fsPath } from "./fs-path";
import { closeSync, constants, fchownSync, fstatSync, lstatSync, openSync, readdirSync } from "node:fs";
import type { Jail } from "./jail";
import { O_DIRECTORY, O_NOFOLLOW, O_PATH } from "./openat2";

type Owner = { uid: number; gid: number };

/** Folders read between two turns of the event loop, so a large tree does not stall the node. */
const FOLDERS_PER_TURN = 50;

export async function handOverFolder(jail: Jail, user: Owner | null): Promise<void> {
  if (!user) return;
  const node = process.getuid?.() ?? 0;
  const folders = [""];
  let read = 0;
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    const nodeOwned = folder === "" ? [""] : [];
    for (const entry of entriesOf(jail, folder, node)) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.folder) folders.push(path);
      if (entry.nodeOwned) nodeOwned.push(path);
    }
    for (const path of nodeOwned) handOver(jail, path, node, user);
    if (++read % FOLDERS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The folders and files in `folder`, and which of them the node owns (a first look by name; the
 * change itself checks again). A folder that vanished or cannot be read has none: the hand-over
 * must never stop a start.
 */
function entriesOf(jail: Jail, folder: string, node: number): Array<{ name: string; folder: boolean; nodeOwned: boolean }> {
  let held: number;
  try {
    held = jail.open(folder, O_PATH | O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return [];
  }
  try {
    const found = [];
    // By the names' bytes: a name that is not UTF-8 goes by its wire form (core/files/raw-name).
    for (const bytes of readdirSync(`/proc/self/fd/${held}`, { encoding: "buffer" })) {
      const name = nameFromBytes(bytes);
      let stats;
      try {
        stats = lstatSync(fsPath(`/proc/self/fd/${held}/${name}`));
      } catch {
        continue;
      }
      if (!stats.isDirectory() && !stats.isFile()) continue;
      found.push({ name, folder: stats.isDirectory(), nodeOwned: stats.uid === node });
    }
    return found;
  } catch {
    return [];
  } finally {
    closeSync(held);
  }
}

/** Hands over one entry, when it is (still) a folder or a file with one name that the node owns. */
function handOver(jail: Jail, path: string, node: number, user: Owner): void {
  let held: number;
  try {
    held = jail.open(path, O_PATH | O_NOFOLLOW);
  } catch {
    return;
  }
  try {
    const stats = fstatSync(held);
    if (stats.uid !== node || !(stats.isDirectory() || (stats.isFile() && stats.nlink === 1))) return;
    // An O_PATH descriptor cannot be chowned; reopening it through /proc opens the same file,
    // never whatever the name leads to by now. O_NONBLOCK: the open never waits.
    const fd = openSync(`/proc/self/fd/${held}`, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      // Checked again on the file itself: a second name may have been made meanwhile.
      const now = fstatSync(fd);
      if (now.isDirectory() || now.nlink === 1) fchownSync(fd, user.uid, user.gid);
    } finally {
      closeSync(fd);
    }
  } catch {
    // vanished or changed meanwhile: nothing to hand over
  } finally {
    closeSync(held);
  }
}
