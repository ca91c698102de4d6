// What a server's network console (telnet, RCON: run.stdin) may make the node do. The game behind
// it is the server's own process, so its console is as hostile as its output, which the output
// throttle holds to 2 MB/s by making the pipe wait (./output-throttle). A console's socket cannot
// be made to wait, and each of its lines costs more than its bytes (held, compared with the
// process's lines and stored on its own: tens of microseconds), so what it sends is charged
// bytes plus LINE_COST a line against a bucket of the output's rate, cut at the line where the
// bucket runs dry, and the rest of that read is dropped and said; then the console reads nothing
// until the bucket has refilled (the game waits on its writes). That is about 2000 short lines a
// second and at most about a thousand at once, whatever one read of the socket holds.
import { OUTPUT_RATE } from "./output-throttle";

/** What one line counts beyond its bytes. */
export const LINE_COST = 1000;
/** What may arrive at once. */
const BURST = OUTPUT_RATE / 2;

export class NetworkConsoleBudget {
  private tokens = BURST;
  private last = performance.now();
  private dropped = 0;

  constructor(
    private readonly deliver: (text: string) => void,
    private readonly reportDropped: (bytes: number) => void,
    private readonly rate = OUTPUT_RATE,
  ) {}

  /**
   * Text as the console received it: what the bucket pays for is delivered, the rest dropped.
   * Answers how many milliseconds the console should read nothing more (0: read on).
   */
  write(text: string): number {
    const now = performance.now();
    this.tokens = Math.min(BURST, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    let end = 0;
    while (end < text.length && this.tokens > 0) {
      const newline = text.indexOf("\n", end);
      const next = newline < 0 ? text.length : newline + 1;
      // A line longer than what is left is cut where the bucket runs dry.
      const take = Math.min(next - end, Math.max(1, Math.floor(this.tokens)));
      this.tokens -= take + (take === next - end && newline >= 0 ? LINE_COST : 0);
      end += take;
    }
    if (end < text.length) this.dropped += Buffer.byteLength(text.slice(end));
    if (end > 0) {
      if (this.dropped > 0 && end === text.length) this.finish();
      this.deliver(end === text.length ? text : text.slice(0, end));
    }
    // Spent: read again once a quarter of the bucket is back, not at its first byte (a read then
    // brought the socket's whole buffer to take a line of it: 100 MB/s read to be dropped).
    return this.tokens > 0 ? 0 : Math.ceil(((BURST / 4 - this.tokens) / this.rate) * 1000);
  }

  /** Says what was dropped, when nothing got through since to say it. */
  finish(): void {
    if (this.dropped > 0) this.reportDropped(this.dropped);
    this.dropped = 0;
  }
}
