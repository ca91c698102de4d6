// Keeps a process that writes as fast as it can from costing the daemon more than a bounded
// share of CPU and memory. A token bucket of bytes: pipe readers are told to wait (the process
// then blocks on its own writes, as on a slow terminal); sources that cannot wait (a pty) have
// what arrives beyond the bucket's debt dropped, and the console says how much. What a flood
// leaves behind is collected as it goes (./flood-collection).
import { floodCollection } from "./flood-collection";

/** Sustained console output a server may produce, in bytes per second. */
export const OUTPUT_RATE = 2 * 1024 * 1024;
/** What may arrive at once before the rate applies. */
export const OUTPUT_BURST = 2 * 1024 * 1024;

export class OutputThrottle {
  private tokens: number;
  private last = performance.now();
  private dropped = 0;

  constructor(
    private readonly deliver: (chunk: Uint8Array) => void,
    private readonly reportDropped: (bytes: number) => void,
    private readonly rate = OUTPUT_RATE,
    private readonly burst = OUTPUT_BURST,
  ) {
    this.tokens = burst;
  }

  /** Takes a chunk; resolves (when returned) once the reader may read more. */
  write = (chunk: Uint8Array): void | Promise<void> => {
    floodCollection.output(chunk.length);
    this.refill();
    if (this.tokens < -this.burst) {
      this.dropped += chunk.length;
      return this.waitForTokens();
    }
    if (this.dropped > 0) {
      this.reportDropped(this.dropped);
      this.dropped = 0;
    }
    this.tokens -= chunk.length;
    this.deliver(chunk);
    if (this.tokens < 0) return this.waitForTokens();
  };

  /** Says what was dropped at the end of a flood, when no later chunk got through to say it. */
  finish(): void {
    if (this.dropped > 0) this.reportDropped(this.dropped);
    this.dropped = 0;
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
  }

  private waitForTokens(): Promise<void> {
    return Bun.sleep(Math.ceil((-this.tokens / this.rate) * 1000));
  }
}
