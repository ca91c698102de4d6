// Finding files by name below a folder (the file manager's search). The walk goes through the
// jail like every file operation (each folder opened beneath the root) and never walks into a
// symbolic link, so it can neither climb out nor loop; links are found by name like any entry.
// It is bounded: at most MAX_VISITED entries looked at, MAX_RESULTS returned and MAX_MS spent,
// yielding to the event loop between folders; a search cut short says so (`truncated`).
import { closeSync, lstatSync, readdirSync } from "node:fs";
import type { Jail } from "./jail";
import { O_DIRECTORY, O_NOFOLLOW, O_PATH } from "./openat2";

export const SEARCH_LIMITS = { MAX_VISITED: 50_000, MAX_RESULTS: 200, MAX_MS: 3_000 };
const FOLDERS_PER_TURN = 20;

export interface SearchHit {
  /** jail-relative */
  path: string;
  isFile: boolean;
  size: number;
  modifyTime: number;
}

export interface SearchResult {
  path: string;
  query: string;
  results: SearchHit[];
  truncated: boolean;
}

/** Entries below `folder` whose name holds `query` (case-insensitive), folders walked breadth first. */
export async function searchNames(jail: Jail, folder: string, query: string, limits = SEARCH_LIMITS): Promise<SearchResult> {
  // The folder searched may itself be a link that stays inside (followed, as a listing would);
  // one leading out is refused (ErrPathOutside), a missing one is ErrNotFound. Below it, nothing is followed.
  const start = jail.inFolder(folder, (held) => jail.realRelative(held, folder));
  const needle = query.toLocaleLowerCase();
  const results: SearchHit[] = [];
  const deadline = Date.now() + limits.MAX_MS;
  const queue = [start];
  let visited = 0;
  let truncated = false;
  let turns = 0;
  walk: for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    let held: number;
    try {
      held = jail.open(current, O_PATH | O_DIRECTORY | O_NOFOLLOW);
    } catch {
      continue; // gone, or swapped for a link meanwhile
    }
    try {
      let names: string[];
      try {
        names = readdirSync(`/proc/self/fd/${held}`);
      } catch {
        continue;
      }
      for (const name of names) {
        if (++visited > limits.MAX_VISITED || results.length >= limits.MAX_RESULTS || Date.now() > deadline) {
          truncated = true;
          break walk;
        }
        let stats;
        try {
          stats = lstatSync(`/proc/self/fd/${held}/${name}`);
        } catch {
          continue;
        }
        const path = current ? `${current}/${name}` : name;
        if (stats.isDirectory()) queue.push(path);
        if (name.toLocaleLowerCase().includes(needle)) results.push({ path, isFile: !stats.isDirectory(), size: stats.isDirectory() ? 0 : stats.size, modifyTime: Math.floor(stats.mtimeMs / 1000) });
      }
    } finally {
      closeSync(held);
    }
    if (++turns % FOLDERS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return { path: start, query, results, truncated };
}
