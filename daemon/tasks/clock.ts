// The scheduler's sense of time, as an interface so tests can drive it: a task that fires at
// 03:00 is tested by moving a clock, not by waiting.
export interface Clock {
  now(): number;
  /** Calls `callback` once, `delayMs` from now; the returned function cancels it. */
  setTimer(callback: () => void, delayMs: number): () => void;
  /** Resolves after `ms`, or rejects when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** setTimeout cannot wait longer than this (about 24.8 days); longer waits are re-armed. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    const timer = setTimeout(callback, Math.min(Math.max(0, delayMs), MAX_TIMER_MS));
    return () => clearTimeout(timer);
  },
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", abort);
        resolve();
      }, ms);
      const abort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", abort, { once: true });
    });
  },
};
