// Autorecover's limit on crash loops: a server that crashes CRASH_LIMIT times within
// CRASH_WINDOW_MS is left stopped instead of being restarted forever.

export const CRASH_LIMIT = 3;
export const CRASH_WINDOW_MS = 60_000;

export class CrashGuard {
  private times: number[] = [];

  constructor(
    readonly limit = CRASH_LIMIT,
    readonly windowMs = CRASH_WINDOW_MS,
  ) {}

  /** Records a crash; true when the server may be restarted once more. */
  allowRestart(now = Date.now()): boolean {
    this.times = [...this.times.filter((t) => now - t < this.windowMs), now];
    return this.times.length < this.limit;
  }
}
