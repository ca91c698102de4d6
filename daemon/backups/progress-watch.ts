// Whether a backup's restic still gets anywhere. A server can make restic wait for good: a file
// of its folder swapped for a named pipe between restic's look at it and its open (renameat2
// RENAME_EXCHANGE in a loop) has restic's open wait for a writer that never comes (restic has no
// option to open without blocking), and backups run one at a time per repository, so every other
// server's backup on that target would wait behind it until the node restarts.
//
// Progress is what restic did, not what it found: the files and bytes it says it has done
// (`--json` status lines, once a second), or input and output of its own beyond the lines it
// printed (reading the server's files, the repository's index, writing packs, talking to the
// target: /proc/<pid>/io's rchar and wchar, less what it wrote on stdout and stderr). What it
// found (total_files, total_bytes) is not progress: a server can make its folder grow forever
// while restic waits on a pipe. A backup is ended when nothing progressed for `stallMs` in a row,
// or when it has spent more than `idleMs` in all without progress and that is more than half its
// time (a server that lets restic go just before the limit, pipe after pipe).
import { readFileSync } from "node:fs";

export interface StallLimits {
  /** Without progress this long in a row, the backup is ended. */
  stallMs: number;
  /** Without progress this long in all, and for more than half the backup's time, it is ended too. */
  idleMs: number;
}

/** A backup is ended after 2 minutes without progress, or 10 minutes in all without it. */
export const DEFAULT_STALL: StallLimits = { stallMs: 120_000, idleMs: 600_000 };

/** Input and output beyond restic's own lines that count as progress (a lock refresh is a few hundred bytes). */
const IO_STEP = 16 * 1024;

export class ProgressWatch {
  private readonly started: number;
  private lastProgress: number;
  private lastTick: number;
  private idle = 0;
  private counters = "";
  private printed = 0;
  /** The most input and output seen beyond what restic printed. */
  private ioMark: number | null = null;
  private ended = false;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly limits: StallLimits,
    /** restic's own pid once known (inside its view, not bubblewrap's). */
    private readonly pid: () => number | null,
    /** Called once, with how long restic went without progress. */
    private readonly onStall: (idleMs: number) => void,
    private readonly now: () => number = Date.now,
    tickMs = Math.max(100, Math.min(1000, limits.stallMs / 4)),
  ) {
    this.started = this.lastProgress = this.lastTick = now();
    this.timer = setInterval(() => this.tick(), tickMs);
  }

  /** Bytes restic wrote on stdout or stderr (its own lines: not progress). */
  output(bytes: number): void {
    this.printed += bytes;
  }

  /** A `--json` line of restic's. */
  status(json: Record<string, unknown>): void {
    if (json.message_type !== "status") return;
    const counters = `${Number(json.files_done ?? 0)}/${Number(json.bytes_done ?? 0)}`;
    if (counters !== this.counters) {
      this.counters = counters;
      this.progressed();
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One look: restic's input and output, then the limits. Public for tests. */
  tick(): void {
    if (this.ended) return;
    const io = ioOf(this.pid());
    if (io !== null) {
      const beyond = io - this.printed;
      if (this.ioMark === null) this.ioMark = beyond;
      else if (beyond - this.ioMark >= IO_STEP) {
        this.ioMark = beyond;
        this.progressed();
      }
    }
    const now = this.now();
    // A look with no progress since the one before counts that whole while as idle.
    if (this.lastProgress < this.lastTick) this.idle += now - this.lastTick;
    this.lastTick = now;
    const still = now - this.lastProgress;
    const inAll = this.idle;
    if (still >= this.limits.stallMs || (inAll >= this.limits.idleMs && inAll * 2 > now - this.started)) {
      this.ended = true;
      this.stop();
      this.onStall(Math.max(still, inAll));
    }
  }

  private progressed(): void {
    this.lastProgress = this.now();
  }
}

/** rchar + wchar of a process (/proc/<pid>/io), or null when it cannot be read. */
function ioOf(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const text = readFileSync(`/proc/${pid}/io`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, "m").exec(text)?.[1] ?? NaN);
    const total = field("rchar") + field("wchar");
    return Number.isFinite(total) ? total : null;
  } catch {
    return null;
  }
}
