// One copy of each line when a server has a network console (telnet, RCON). Games that offer one
// (Teeworlds' econ, 7 Days to Die's telnet, Source RCON) mirror their log onto it, so every line
// would show twice: once as the process printed it and once as the console sent it. The process's
// output is the record and always shows; a line from the console shows only when the process did
// not print the same line just before or within HOLD_MS after it. "The same" ignores a leading
// time stamp, which the two copies often write differently ("[2026-01-01 10:00:00]" on stdout,
// "[10:00:00]" on the econ). Blank console lines are dropped; a console line left without its
// newline (a prompt) shows once HOLD_MS have passed.

/** How long a console line waits for its copy in the process's output. */
export const HOLD_MS = 500;
/** How long a line the process printed can still stand for a console line. */
export const REMEMBER_MS = 5000;
/** At most this many recent process lines are kept to compare with. */
const REMEMBER_LINES = 500;
/**
 * Lines are compared by their first this many characters, and no more of a line not ended yet is
 * kept: the process's line was kept whole and joined to every further chunk, so a process that
 * never ended a line grew it without bound and made each chunk cost its whole length (the node's
 * thread busy with nothing else within seconds).
 */
export const COMPARED_CHARS = 4096;
/** A console line not ended yet shows once it is this long, rather than growing with every chunk. */
const CONSOLE_LINE_CHARS = 64 * 1024;

/** Leading time stamps: "[2026-01-01 10:00:00]", "[10:00:00]", "2026-01-01T10:00:00 12.345", "10:00:00". */
const STAMP = /^(?:\s*\[[\d\-/:. T]+\]|\s*\d{4}-\d\d-\d\dT[\d:.]+(?:\s+\d+\.\d+)?|\s*\d\d:\d\d:\d\d(?:\.\d+)?)+\s*/;

export function sameLineKey(line: string): string {
  const start = line.length > COMPARED_CHARS ? line.slice(0, COMPARED_CHARS) : line;
  return start.replace(/\r/g, "").replace(STAMP, "").trimEnd();
}

interface Held { key: string; line: string; timer: ReturnType<typeof setTimeout> }

export class ConsoleEcho {
  private recent: Array<{ key: string; time: number }> = [];
  /**
   * Console lines waiting for their copy, in the order they came, and by key: a line's copy and
   * its timer's end each find it at once. (A list filtered at every timer's end cost the square of
   * the lines held: a game's console sending 50,000 lines at once held the node's thread 15 s.)
   */
  private held = new Set<Held>();
  private heldByKey = new Map<string, Held[]>();
  private processPartial = "";
  private consolePartial = "";
  private partialTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    /** Shows one whole line from the console (without its newline). */
    private readonly show: (line: string) => void,
    private readonly holdMs = HOLD_MS,
    private readonly rememberMs = REMEMBER_MS,
  ) {}

  /** The process's own output, as it arrived (it is shown by the caller). */
  processOutput(text: string): void {
    const lines = (this.processPartial + text).split("\n");
    const open = lines.pop() ?? "";
    this.processPartial = open.length > COMPARED_CHARS ? open.slice(0, COMPARED_CHARS) : open;
    const now = Date.now();
    for (const line of lines) {
      const key = sameLineKey(line);
      if (!key) continue;
      const twin = this.heldByKey.get(key)?.[0];
      if (twin) {
        clearTimeout(twin.timer);
        this.release(twin);
      } else {
        this.recent.push({ key, time: now });
      }
    }
    if (this.recent.length > REMEMBER_LINES) this.recent.splice(0, this.recent.length - REMEMBER_LINES);
  }

  /** Text the network console received. */
  consoleOutput(text: string): void {
    if (this.partialTimer) clearTimeout(this.partialTimer);
    this.partialTimer = null;
    // NULs end Teeworlds' econ lines; they would start the next line and hide its time stamp.
    const lines = (this.consolePartial + text.replaceAll("\0", "")).split("\n");
    this.consolePartial = lines.pop() ?? "";
    for (const line of lines) this.take(line);
    if (this.consolePartial.length > CONSOLE_LINE_CHARS) {
      this.take(this.consolePartial);
      this.consolePartial = "";
    }
    if (this.consolePartial) {
      this.partialTimer = setTimeout(() => {
        this.partialTimer = null;
        const line = this.consolePartial;
        this.consolePartial = "";
        this.take(line);
      }, this.holdMs);
    }
  }

  /** The console closed: what is held shows now. */
  close(): void {
    if (this.partialTimer) clearTimeout(this.partialTimer);
    if (this.consolePartial) this.take(this.consolePartial);
    this.consolePartial = "";
    const held = [...this.held];
    this.held.clear();
    this.heldByKey.clear();
    for (const line of held) {
      clearTimeout(line.timer);
      this.show(line.line);
    }
    this.recent = [];
  }

  private take(raw: string): void {
    const line = raw.replace(/\r$/, "");
    const key = sameLineKey(line);
    if (!key) return;
    const now = Date.now();
    this.recent = this.recent.filter((entry) => now - entry.time <= this.rememberMs);
    const twin = this.recent.findIndex((entry) => entry.key === key);
    if (twin >= 0) {
      this.recent.splice(twin, 1);
      return;
    }
    const held: Held = {
      key,
      line,
      timer: setTimeout(() => {
        this.release(held);
        this.show(line);
      }, this.holdMs),
    };
    this.held.add(held);
    const same = this.heldByKey.get(key);
    if (same) same.push(held);
    else this.heldByKey.set(key, [held]);
  }

  /** Forgets a held line (shown, or matched by its copy). Lines of one key end in the order they came, so it is the first of its key. */
  private release(held: Held): void {
    this.held.delete(held);
    const same = this.heldByKey.get(held.key);
    if (!same) return;
    if (same[0] === held) same.shift();
    else same.splice(same.indexOf(held), 1);
    if (same.length === 0) this.heldByKey.delete(held.key);
  }
}
