// CPU and memory of a process and everything it started, read from /proc (Linux). Used by the
// standard and tty environments; docker asks the Engine instead.
import { readdirSync, readFileSync } from "node:fs";
import type { ProcessStats } from "./types";

/** Linux reports CPU time in clock ticks; USER_HZ is 100 on every mainstream architecture. */
const TICKS_PER_SECOND = 100;

interface ProcEntry { pid: number; ppid: number; ticks: number }

function readStat(pid: number): ProcEntry | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces; the fields after it are fixed.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { pid, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** The pid and all of its descendants that are alive now. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const entry = readStat(pid);
    if (!entry) continue;
    const list = children.get(entry.ppid) ?? [];
    list.push(pid);
    children.set(entry.ppid, list);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples a process tree; CPU percent is measured between consecutive samples. */
export class TreeSampler {
  private last: { ticks: number; at: number } | null = null;

  hasSample(): boolean {
    return this.last !== null;
  }

  sample(root: number | undefined): ProcessStats {
    if (root === undefined) {
      this.last = null;
      return { cpu: 0, memory: 0 };
    }
    let ticks = 0;
    let memory = 0;
    for (const pid of processTree(root)) {
      ticks += readStat(pid)?.ticks ?? 0;
      memory += rssBytes(pid);
    }
    const at = performance.now();
    let cpu = 0;
    if (this.last && at > this.last.at) {
      const used = (ticks - this.last.ticks) / TICKS_PER_SECOND;
      cpu = Math.max(0, (used / ((at - this.last.at) / 1000)) * 100);
    }
    this.last = { ticks, at };
    return { cpu: Math.round(cpu * 100) / 100, memory };
  }
}

/**
 * The process `depth` generations below `root`, following the first child each time; null when a
 * generation is not there (yet).
 */
export function descendant(root: number, depth: number): number | null {
  let pid = root;
  for (let level = 0; level < depth; level++) {
    const child = processTree(pid).find((candidate) => readStat(candidate)?.ppid === pid);
    if (child === undefined) return null;
    pid = child;
  }
  return pid;
}

/**
 * The process `depth` levels below `root`, waited for up to `patienceMs`: a stop sent right after a
 * start may come while the sandbox is still starting the command. `root` when it never appears.
 */
export async function awaitDescendant(root: number, depth: number, patienceMs = 2000): Promise<number> {
  const until = Date.now() + patienceMs;
  for (;;) {
    const pid = descendant(root, depth);
    if (pid !== null) return pid;
    if (Date.now() >= until) return root;
    await Bun.sleep(10);
  }
}

/** Sends a signal to every process of the tree, children first so none is re-parented away. */
export function signalTree(root: number, signal: NodeJS.Signals | number): void {
  for (const pid of processTree(root).reverse()) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
