// Walking a server's folder: breadth first, each folder opened beneath the jail's root and never
// through a symbolic link, so a walk can neither climb out nor loop. It yields to the event loop
// between every few folders, so a large folder does not hold the node up.
import { closeSync, lstatSync, readdirSync, type Stats } from "node:fs";
import { nameFromBytes } from "../../core/files/raw-name";
import { fsPath } from "./fs-path";
import type { Jail } from "./jail";
import { O_DIRECTORY, O_NOFOLLOW, O_PATH } from "./openat2";

const FOLDERS_PER_TURN = 20;

/** What a visit answers: go into this folder (true), pass it by (false), or end the walk here. */
export const STOP = Symbol("stop");
export type Visit = (path: string, stats: Stats) => boolean | typeof STOP;

/**
 * Visits every entry below `start` (jail-relative, "" for the root). Answers what the walk did not
 * reach when a visit stopped it: the entry it stopped at, the rest of that folder, and the folders
 * still queued ([] when it went everywhere).
 */
export async function walkJail(jail: Jail, start: string, visit: Visit): Promise<string[]> {
  const queue = [start];
  let turns = 0;
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    let held: number;
    try {
      held = jail.open(current, O_PATH | O_DIRECTORY | O_NOFOLLOW);
    } catch {
      continue; // gone, or swapped for a link meanwhile
    }
    try {
      let names: string[];
      try {
        // By their bytes: a name that is not UTF-8 is walked by its wire form (core/files/raw-name).
        names = readdirSync(`/proc/self/fd/${held}`, { encoding: "buffer" }).map(nameFromBytes);
      } catch {
        continue;
      }
      const pathOf = (name: string) => (current ? `${current}/${name}` : name);
      for (const [i, name] of names.entries()) {
        let stats;
        try {
          stats = lstatSync(fsPath(`/proc/self/fd/${held}/${name}`));
        } catch {
          continue;
        }
        const answer = visit(pathOf(name), stats);
        if (answer === STOP) return [...names.slice(i).map(pathOf), ...queue];
        if (answer && stats.isDirectory()) queue.push(pathOf(name));
      }
    } finally {
      closeSync(held);
    }
    if (++turns % FOLDERS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return [];
}
