// Copying inside a server's folder (the file manager's copy). The source tree is listed first,
// through the jail (folders opened beneath the root, links never walked into), so the copy is
// of a fixed list and a folder copied into a sibling cannot chase its own growing copy. Its size
// is checked against the disk space before one byte is written, and every file then goes
// through writeAtomically (charged to the quota, handed to the server's user, never half there);
// a copy that fails half way is removed again. Files are read through openRegularFile: a hard
// link (maybe to a host file) or a FIFO is refused, as for downloads. A symbolic link is copied
// as a link when its target, read from the copy's place, still stays inside the folder, and left
// out otherwise (a link out is never made, whoever asks).
import { closeSync, type Stats } from "node:fs";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { readFolder } from "./listing";
import { readLinkText } from "./link-text";
import { makeFolder, makeSymlink, removePath, statPath, writeAtomically } from "./operations";
import { openRegularFile } from "./open-regular";
import { fdChunks } from "./fd-chunks";
import { assertFits } from "./quota";
import { parentOf, refuseIntoItself, refuseTaken } from "./move";

/** Folders listed between two turns of the event loop, so a large tree does not stall the node. */
const FOLDERS_PER_TURN = 50;

interface Item {
  /** relative to the copied entry ("" is the entry itself) */
  rel: string;
  stats: Stats;
}

/** Copies `from` to `to` (jail-relative); the target's folder must exist and its name be free. */
export async function copyPath(jail: Jail, from: string, to: string): Promise<string> {
  const source = jail.normalize(from);
  const target = jail.normalize(to);
  if (source === "" || target === "") throw new KilnError("ErrNoPermission", { path: source === "" ? from : to }, "the server's folder itself cannot be copied or replaced");
  const stats = statPath(jail, source, false);
  refuseTaken(jail, target);
  if (stats.isDirectory()) refuseIntoItself(jail, source, parentOf(target));
  else statPath(jail, parentOf(target)); // the target's folder exists (ErrNotFound otherwise)
  const items = await listTree(jail, source, stats);
  assertFits(jail, items.reduce((sum, item) => sum + (item.stats.isFile() ? item.stats.size : 0), 0));
  try {
    for (const item of items) await copyItem(jail, join(source, item.rel), join(target, item.rel), item.stats);
  } catch (error) {
    try {
      removePath(jail, target);
    } catch {
      // nothing of it was made
    }
    throw error;
  }
  return target;
}

const join = (base: string, rel: string) => (rel === "" ? base : `${base}/${rel}`);

async function listTree(jail: Jail, source: string, stats: Stats): Promise<Item[]> {
  const items: Item[] = [{ rel: "", stats }];
  if (!stats.isDirectory()) return items;
  const folders = [""];
  let read = 0;
  for (let folder = folders.shift(); folder !== undefined; folder = folders.shift()) {
    for (const child of readFolder(jail, join(source, folder))) {
      const rel = folder ? `${folder}/${child.name}` : child.name;
      items.push({ rel, stats: child.stats });
      if (child.stats.isDirectory()) folders.push(rel);
    }
    if (++read % FOLDERS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return items;
}

async function copyItem(jail: Jail, from: string, to: string, stats: Stats): Promise<void> {
  if (stats.isDirectory()) {
    makeFolder(jail, to);
    return;
  }
  if (stats.isSymbolicLink()) {
    const link = jail.at(from, readLinkText); // by its bytes: a target that is not UTF-8 is copied as it is
    try {
      makeSymlink(jail, link, to);
    } catch (error) {
      if (!(error instanceof KilnError && error.code === "ErrPathOutside")) throw error;
    }
    return;
  }
  if (!stats.isFile()) return; // FIFOs, sockets, devices: nothing a copy should read
  const { fd, stats: opened } = openRegularFile(jail, from);
  try {
    await writeAtomically(jail, to, fdChunks(fd), opened.mode & 0o777);
  } finally {
    closeSync(fd);
  }
}
