// A clock the test moves by hand, for the task scheduler: timers fire when `advance` passes
// their time, in order, and sleeps end the same way.
import type { Clock } from "../../daemon/tasks/clock";

interface Timer { at: number; callback: () => void; cancelled: boolean }

export class FakeClock implements Clock {
  private timers: Timer[] = [];

  constructor(private time: number) {}

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, delayMs: number): () => void {
    const timer: Timer = { at: this.time + Math.max(0, delayMs), callback, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const cancel = this.setTimer(resolve, ms);
      signal?.addEventListener("abort", () => { cancel(); reject(signal.reason); }, { once: true });
    });
  }

  /** Moves time forward to `target` (epoch ms), firing each timer due on the way at its own time. */
  async advanceTo(target: number): Promise<void> {
    for (;;) {
      const due = this.timers.filter((t) => !t.cancelled && t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.time = Math.max(this.time, due.at);
      due.cancelled = true;
      due.callback();
      // Let what the callback started (a run, the next timer) take its turn.
      await Bun.sleep(1);
    }
    this.timers = this.timers.filter((t) => !t.cancelled);
    this.time = target;
  }

  /** Timers still waiting. */
  pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}
