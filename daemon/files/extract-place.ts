// Moves an unpacked archive from its staging folder into the destination: new entries are renamed
// in, existing files (and symlinks, which are replaced, never followed) give way to the archive's,
// existing folders are merged with the archive's folders. Every move is planned before the first
// one is made, so a clash that cannot be resolved (the archive has a file where the destination
// has a folder) fails with nothing moved.
import { lstatSync, type Stats } from "node:fs";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { readFolder } from "./listing";
import { removePath, renamePath } from "./operations";

interface Move {
  from: string;
  to: string;
  /** A folder cannot be renamed over a file: the file is removed first. */
  removeFirst: boolean;
}

/** Moves the content of `staging` into `destination` (both jail-relative); `staging` is left empty-ish. */
export function moveIntoPlace(jail: Jail, staging: string, destination: string, refuse?: (target: string) => void): void {
  const moves: Move[] = [];
  plan(jail, staging, destination, moves);
  // Every target judged before the first move, so a refused one leaves the folder as it was.
  if (refuse) for (const move of moves) for (const path of [move.to, ...walk(jail, move.from).map((name) => `${move.to}/${name}`)]) refuse(path);
  for (const move of moves) {
    if (move.removeFirst) removePath(jail, move.to);
    renamePath(jail, move.from, move.to);
  }
}

function plan(jail: Jail, from: string, to: string, moves: Move[]): void {
  for (const { name, stats } of readFolder(jail, from)) {
    const source = `${from}/${name}`;
    const target = to ? `${to}/${name}` : name;
    const existing = lstatEntry(jail, target);
    if (!existing) moves.push({ from: source, to: target, removeFirst: false });
    else if (existing.isDirectory() && stats.isDirectory()) plan(jail, source, target, moves);
    else if (existing.isDirectory()) throw new KilnError("ErrFileExists", { path: target }, `${target} is a folder; the archive holds a file there`);
    else moves.push({ from: source, to: target, removeFirst: stats.isDirectory() });
  }
}

/** The paths under a staged folder, relative to it (nothing for a file). */
function walk(jail: Jail, path: string, prefix = ""): string[] {
  if (!lstatEntry(jail, path)?.isDirectory()) return [];
  return readFolder(jail, path).flatMap(({ name, stats }) => [`${prefix}${name}`, ...(stats.isDirectory() ? walk(jail, `${path}/${name}`, `${prefix}${name}/`) : [])]);
}

function lstatEntry(jail: Jail, path: string): Stats | undefined {
  return jail.at(path, (entry) => {
    try {
      return lstatSync(entry);
    } catch {
      return undefined;
    }
  });
}
