// Finding files by name below a folder (the file manager's search), through the jail's walk
// (./walk: never into a link; links are found by name like any entry). It is bounded: at most
// MAX_VISITED entries looked at, MAX_RESULTS returned and MAX_MS spent; a search cut short says
// so (`truncated`).
import type { Jail } from "./jail";
import { STOP, walkJail } from "./walk";

export const SEARCH_LIMITS = { MAX_VISITED: 50_000, MAX_RESULTS: 200, MAX_MS: 3_000 };

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
  let visited = 0;
  const unreached = await walkJail(jail, start, (path, stats) => {
    if (++visited > limits.MAX_VISITED || results.length >= limits.MAX_RESULTS || Date.now() > deadline) return STOP;
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (name.toLocaleLowerCase().includes(needle)) results.push({ path, isFile: !stats.isDirectory(), size: stats.isDirectory() ? 0 : stats.size, modifyTime: Math.floor(stats.mtimeMs / 1000) });
    return true;
  });
  const truncated = unreached.length > 0;
  return { path: start, query, results, truncated };
}
