// What a server's folder takes on disk, measured now and then rather than on every stats call:
// every `intervalMs` while the server runs, shortly after Kiln's own writes, when a stats answer
// finds the figure stale, and afresh before a start. The walk is `du` in a child process at low
// priority (it does not follow links, counts a hard-linked file once, and stays on the folder's
// file system), one walk at a time on the whole node, so neither a huge folder nor many servers
// can stall the daemon. Its result feeds the quota every write of Kiln's checks (../files/quota).
import { DiskQuota } from "../files/quota";

/** After Kiln's own writes, the measurement waits this long for more (an upload of many files). */
const AFTER_WRITE_MS = 2000;
/** A walk that takes longer is given up (its figure stays as it was). */
const WALK_TIMEOUT_MS = 120_000;

/** Walks run one after the other across the node. */
let walks: Promise<unknown> = Promise.resolve();

/** Bytes `folder` takes on disk (allocated blocks, as `du` counts them); null when it cannot be walked. */
export function measureFolder(folder: string): Promise<number | null> {
  const walk = walks.then(() => runDu(folder));
  walks = walk.catch(() => undefined);
  return walk;
}

async function runDu(folder: string): Promise<number | null> {
  const proc = Bun.spawn(["nice", "-n", "10", "du", "-s", "-x", "-P", "-B1", "--", folder], { stdout: "pipe", stderr: "ignore" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), WALK_TIMEOUT_MS);
  try {
    const text = await new Response(proc.stdout).text();
    await proc.exited;
    // du still prints the total when some entry could not be read (the server's process removed it meanwhile).
    const bytes = Number(text.split("\t")[0]);
    return Number.isSafeInteger(bytes) && bytes >= 0 && text.includes("\t") ? bytes : null;
  } finally {
    clearTimeout(timer);
  }
}

export interface DiskWatchOptions {
  folder: string;
  /** The limit in bytes as the definition says now; null: none. */
  limit: () => number | null;
  intervalMs: number;
  /** The server runs (only running servers are measured on the clock). */
  running: () => boolean;
  /** Told when a measurement finds the folder over its limit. */
  over: (used: number, limit: number) => void;
}

export class DiskWatch {
  readonly quota: DiskQuota;
  private measuredAt = 0;
  private current: Promise<void> | null = null;
  private afterWrite: ReturnType<typeof setTimeout> | null = null;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly options: DiskWatchOptions) {
    this.quota = new DiskQuota(options.limit, () => this.soon());
    this.timer = setInterval(() => {
      if (options.running()) void this.measure();
    }, options.intervalMs);
    this.timer.unref?.();
    // A first figure for the stats and the quota, as soon as the node's walks come to it.
    void this.measure();
  }

  /** Bytes the folder takes as last measured (plus Kiln's writes since); a stale figure starts a new walk. */
  used(): number | null {
    if (Date.now() - this.measuredAt > this.options.intervalMs) void this.measure();
    return this.quota.used();
  }

  /** Walks the folder (joining a walk under way), then tells `over` when it is past its limit. */
  measure(): Promise<void> {
    this.current ??= (async () => {
      try {
        const before = this.quota.charged();
        const bytes = await measureFolder(this.options.folder);
        if (bytes === null) return;
        this.quota.record(bytes, before);
        this.measuredAt = Date.now();
        const limit = this.options.limit();
        if (limit !== null && bytes > limit) this.options.over(bytes, limit);
      } finally {
        this.current = null;
      }
    })();
    return this.current;
  }

  /** A fresh figure, when the last one said the folder was over its limit or there is none yet. */
  async refresh(): Promise<void> {
    if (this.options.limit() === null) return;
    if (this.quota.used() === null || this.quota.isOver()) await this.measure();
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.afterWrite) clearTimeout(this.afterWrite);
  }

  private soon(): void {
    if (this.afterWrite) clearTimeout(this.afterWrite);
    this.afterWrite = setTimeout(() => {
      this.afterWrite = null;
      void this.measure();
    }, AFTER_WRITE_MS);
    this.afterWrite.unref?.();
  }
}
