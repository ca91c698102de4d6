// The processes below one of ours, read from /proc: what a test or a bench checks is gone after a
// stop, or kills if it is not.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcId { pid: number; start: string; comm: string }

/** The first process below `pid` whose command name is `comm` (a server's process, say). */
export function findDescendant(pid: number, comm: string): number | undefined {
  return descendants(pid).find((p) => p.comm === comm)?.pid;
}

/** Every process below `pid` (children, grandchildren…), with start times to recognise them later. */
export function descendants(pid: number): ProcId[] {
  const parents = new Map<number, ProcId[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ppid = Number(fields[1]);
      const list = parents.get(ppid) ?? [];
      list.push({ pid: Number(name), start: fields[19]!, comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) });
      parents.set(ppid, list);
    } catch {
      // ended while we looked
    }
  }
  const found: ProcId[] = [];
  const walk = (p: number) => {
    for (const child of parents.get(p) ?? []) {
      found.push(child);
      walk(child.pid);
    }
  };
  walk(pid);
  return found;
}
