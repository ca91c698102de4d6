// The processes below one of ours, read from /proc: what a test or a bench checks is gone after a
// stop, or kills if it is not.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcId { pid: number; start: string; comm: string }

/** The first process below `pid` whose command name is `comm` (a server's process, say). */
export function findDescendant(pid: number, comm: string): number | undefined {
  return descendants(pid).find((p) => p.comm === comm)?.pid;
}

/**
 * Every process below `pid` (children, grandchildren…), with start times to recognise them later.
 * Walked through each thread's list of children (/proc/<pid>/task/<tid>/children: a child is
 * listed under the thread that made it) rather than every process's stat: a test that watches
 * its processes every few milliseconds (backups-offnode) spent a core's tenth reading them all.
 */
export function descendants(pid: number, found: ProcId[] = []): ProcId[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found; // ended while we looked
  }
  for (const tid of tasks) {
    let children = "";
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8");
    } catch {
      continue;
    }
    for (const child of children.split(" ").filter(Boolean).map(Number)) {
      try {
        const stat = readFileSync(`/proc/${child}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        found.push({ pid: child, start: fields[19]!, comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) });
      } catch {
        continue;
      }
      descendants(child, found);
    }
  }
  return found;
}
