// One server's console: everything its processes wrote and the daemon said, in arrival order,
// kept up to CONSOLE_BUFFER_CAP bytes and trimmed to CONSOLE_BUFFER_TRIM (oldest dropped). Every
// entry counts at least CONSOLE_ENTRY_MIN_BYTES, so a process writing a byte at a time cannot fill
// the node with millions of entries under the cap; small chunks of one millisecond are one entry.
// Listeners get new text coalesced: whatever arrived within one turn of the event loop goes out
// as one message (setImmediate, after that turn's reads), so a flood costs a send per turn instead
// of one per chunk. Not a 0 ms timer: Bun waits at least a millisecond for one, which was most of
// a quiet line's way to the browser (docs/benchmarks.md, "What a console line waits for").
// Only the daemon's own lines may carry the daemon's mark (core/live/process-text): text from a
// process or a network console is cleaned of it on the way in, and the daemon's lines and whole
// lines from a network console always begin a line of their own, whatever a process left open.
import { CONSOLE_BUFFER_CAP, CONSOLE_BUFFER_TRIM, CONSOLE_ENTRY_MIN_BYTES } from "../../core/live";
import { encodeDaemonLine, type DaemonMessage } from "../../core/live/daemon-message";
import { english } from "../../locales/english";
import { ProcessTextFilter, cleanProcessText } from "../../core/live/process-text";

interface Entry { time: number; text: string; bytes: number }

/** What an entry of `bytes` counts toward the cap. */
const counted = (bytes: number) => Math.max(bytes, CONSOLE_ENTRY_MIN_BYTES);

export type ConsoleListener = (text: string, epoch: number) => void;

export class ConsoleBuffer {
  private entries: Entry[] = [];
  /** What the entries count toward the cap (see counted). */
  private bytes = 0;
  /** Stores so far: see version. */
  private changes = 0;
  private pending = "";
  private flushTimer: ReturnType<typeof setImmediate> | null = null;
  private readonly listeners = new Set<ConsoleListener>();
  /** The server's process output, one stream whatever its pipes: a mark split across chunks is caught. */
  private readonly output = new ProcessTextFilter();
  /** The last text stored did not end its line. */
  private open = false;

  constructor(
    private readonly cap = CONSOLE_BUFFER_CAP,
    private readonly trimTo = CONSOLE_BUFFER_TRIM,
  ) {}

  /** Process output, as it arrived (cleaned of the daemon's mark). */
  write(text: string): void {
    this.store(this.output.push(text));
  }

  /** The process's output has ended: a partial escape it left is dropped. */
  endOutput(): void {
    this.output.end();
  }

  /** One whole line from outside the process (a network console's), on a line of its own. */
  line(text: string): void {
    const clean = cleanProcessText(text).replace(/\r?\n$/, "");
    this.store(`${this.open ? "\n" : ""}${clean}\n`);
  }

  /** A line of the daemon's own, marked as such: English text and the message for other languages. */
  daemon(message: DaemonMessage): void {
    this.store(`${this.open ? "\n" : ""}${encodeDaemonLine(message, english)}`);
  }

  private store(text: string): void {
    if (!text) return;
    this.open = !text.endsWith("\n");
    const bytes = Buffer.byteLength(text);
    const time = Date.now();
    const last = this.entries.at(-1);
    if (last && last.time === time && last.bytes < CONSOLE_ENTRY_MIN_BYTES) {
      // Joined to a small entry of the same millisecond: since() answers for both alike. Joined,
      // not `+`: a concatenation stays a rope, a node per piece (about 64 bytes per byte written).
      this.bytes -= counted(last.bytes);
      last.text = [last.text, text].join("");
      last.bytes += bytes;
      this.bytes += counted(last.bytes);
    } else {
      this.entries.push({ time, text, bytes });
      this.bytes += counted(bytes);
    }
    this.changes++;
    if (this.bytes > this.cap) this.trim();
    this.pending += text;
    this.flushTimer ??= setImmediate(() => this.flush());
  }

  /**
   * Everything written at or after `since` and before `before` (epoch milliseconds; 0 and no bound
   * for all), and the epoch to ask from next.
   */
  since(since = 0, before = Infinity): { logs: string[]; epoch: number } {
    const logs: string[] = [];
    for (const entry of this.entries) {
      if (entry.time >= since && entry.time < before) logs.push(entry.text);
    }
    return { logs, epoch: Math.min(Date.now(), before) };
  }

  /** What the entries count toward the cap (each at least CONSOLE_ENTRY_MIN_BYTES). */
  get size(): number {
    return this.bytes;
  }

  /** How many entries are held: since() answered them all when its logs are as many. */
  get count(): number {
    return this.entries.length;
  }

  /** Changes whenever anything is stored: what since() answered at one version is still true while it holds. */
  get version(): number {
    return this.changes;
  }

  subscribe(listener: ConsoleListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private flush(): void {
    this.flushTimer = null;
    const text = this.pending;
    this.pending = "";
    const epoch = Date.now();
    for (const listener of this.listeners) listener(text, epoch);
  }

  /** Drops the oldest entries down to the trim size, releasing them (a trim frees about half the cap, so it is rare). */
  private trim(): void {
    let drop = 0;
    while (this.bytes > this.trimTo && drop < this.entries.length) {
      this.bytes -= counted(this.entries[drop]!.bytes);
      drop++;
    }
    this.entries.splice(0, drop);
  }
}
