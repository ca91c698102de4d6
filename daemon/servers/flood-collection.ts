// A flooding server's output is garbage as soon as it is sent: every chunk read from its pipe or
// pty is a fresh buffer (64–256 KiB), then text, then a socket message. JavaScriptCore collects
// them only once its heap has grown enough, and by then a flood has touched tens of MB that the
// allocator keeps: a node grew 33 MB (36 MB for a pty) within seconds of a `yes` flood, against a
// design budget of the console buffer's 4 MiB. A full collection after every 2 MiB of output held
// it to 12 MB (18 MB), for about 1 % of a core more with a pipe and 7 % less with a pty, whose
// garbage had cost more than collecting it (bench/daemon-console-throughput). Collections are at
// least MIN_GAP_MS apart, so many floods at once cannot spend the node's CPU on them.

/** Output (all servers together) after which the garbage it left is collected. */
export const COLLECT_EVERY_BYTES = 2 * 1024 * 1024;
/** The shortest time between two collections. */
export const MIN_GAP_MS = 250;

export class FloodCollection {
  private bytes = 0;
  private last = -Infinity;

  constructor(
    private readonly collect: () => void = () => Bun.gc(true),
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts output a server produced (delivered or dropped); collects when enough has passed. */
  output(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes < COLLECT_EVERY_BYTES) return;
    const now = this.now();
    if (now - this.last < MIN_GAP_MS) return;
    this.bytes = 0;
    this.last = now;
    this.collect();
  }
}

/** The node's one counter: a flood's garbage is the node's heap, whichever server made it. */
export const floodCollection = new FloodCollection();
