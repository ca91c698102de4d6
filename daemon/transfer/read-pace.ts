// The least pace a read of the source must keep. The stall timer (./source-fetch) only ends a read
// that sends nothing for a minute: a source sending a byte every 59 s held a pull, the move and the
// target's slot for it until an administrator cancelled. A read is judged over a sliding window:
// once it has run a whole window (that first window is its grace: a connection's slow start, a
// file that ends sooner never meets the floor), the bytes of the last window must average the
// floor, or the read ends (ErrTransferFailed). A file of n bytes therefore takes at most about
// one window plus n / floor, whatever the source does.

export interface ReadPace {
  /** The least average, in bytes per second, over any window after the first. */
  floorBytesPerSecond: number;
  windowMs: number;
}

/**
 * 64 KiB/s over 30 s. Four files are read at once, so a link of 2 Mbit/s keeps every read above it;
 * links between nodes are far faster, and TCP's bursts and a busy disk on either side even out over
 * 30 s. What a hostile source can still hold is a window per file plus its bytes at this pace.
 */
export const READ_PACE: ReadPace = { floorBytesPerSecond: 64 * 1024, windowMs: 30_000 };

/** How often a read's pace is looked at, in windows: a trickle is ended within a quarter window of falling short. */
const CHECKS_PER_WINDOW = 4;

/**
 * Watches one read: `count` its bytes; `tooSlow` is called once, when a window after the first
 * fell below the floor. `stop` when the read ended either way.
 */
export function watchPace(pace: ReadPace, tooSlow: () => void): { count: (bytes: number) => void; stop: () => void } {
  let received = 0;
  // (time, bytes received by then) every check, back to the last one a whole window ago.
  const samples: { at: number; received: number }[] = [{ at: Date.now(), received: 0 }];
  const timer = setInterval(() => {
    const now = Date.now();
    samples.push({ at: now, received });
    while (samples.length > 1 && samples[1]!.at <= now - pace.windowMs) samples.shift();
    const oldest = samples[0]!;
    const span = now - oldest.at;
    if (span < pace.windowMs) return;
    if ((received - oldest.received) * 1000 < pace.floorBytesPerSecond * span) {
      clearInterval(timer);
      tooSlow();
    }
  }, Math.max(10, Math.floor(pace.windowMs / CHECKS_PER_WINDOW)));
  return {
    count: (bytes) => void (received += bytes),
    stop: () => clearInterval(timer),
  };
}
