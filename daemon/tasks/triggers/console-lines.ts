// A server's console as whole lines of its own output, for console triggers and waitForConsole
// steps. The console buffer hands its listeners text as it arrived, coalesced per turn: the
// process's output (which may end mid-line), lines of a network console, and the daemon's own
// lines. Those last always begin a line and carry the daemon's OSC 7701 sequence, which no process
// text can hold (core/live/process-text), so they are told apart by it and left out: a task's
// progress lines, or a line saying a trigger fired, never match a trigger.
//
// What listeners get is bounded: colours and other terminal sequences removed, a trailing CR
// dropped, at most MAX_TRIGGER_LINE characters. And what they cost: RE2 runs in time linear in
// the line, but a compiled pattern at its size bound still costs some milliseconds on a long line,
// and ten triggers on a process writing as fast as it can would make that a core. So a server's
// lines are looked at up to LINES_PER_SECOND a second and MATCH_BUDGET_MS of matching a second;
// what comes beyond that in the same second is skipped, and the console says how many lines were
// (at most once a minute), see docs/tasks.md.
import { DAEMON_SEQUENCE } from "../../../core/live/process-text";
import { message } from "../../../core/live/daemon-message";
import { withoutTerminalSequences } from "../../../core/live/terminal-sequences";
import { MAX_TRIGGER_LINE } from "../../../core/tasks/constants";
import type { ConsoleBuffer } from "../../servers/console-buffer";

/** Lines looked at per second and server; a process writing more has the rest skipped. */
export const LINES_PER_SECOND = 5000;
/** Milliseconds of matching per second and server (a tenth of a core). */
export const MATCH_BUDGET_MS = 100;
/** Skipped lines are said on the console at most this often. */
const REPORT_MS = 60_000;

export type LineListener = (line: string) => void;

/** One line of process output as triggers see it: no terminal sequences, no CR, bounded. */
export function visibleLine(raw: string): string {
  const cut = raw.length > MAX_TRIGGER_LINE * 2 ? raw.slice(0, MAX_TRIGGER_LINE * 2) : raw;
  const text = withoutTerminalSequences(cut).replace(/\r$/, "");
  return text.length > MAX_TRIGGER_LINE ? text.slice(0, MAX_TRIGGER_LINE) : text;
}

export class ConsoleLines {
  private readonly listeners = new Set<LineListener>();
  private unsubscribe: (() => void) | null = null;
  /** The start of a line not ended yet (bounded: the rest of a very long line is not kept). */
  private partial = "";
  private windowStart = 0;
  private inWindow = 0;
  private spent = 0;
  /** Lines skipped (over the rate or the budget) and not said yet; when they were last said. */
  private skipped = 0;
  private reportedAt = 0;
  /** Every line skipped since the start (for tests and benches). */
  skippedTotal = 0;

  constructor(
    private readonly console: ConsoleBuffer,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts `listener` on lines from now on; the returned function stops it. */
  listen(listener: LineListener): () => void {
    this.listeners.add(listener);
    this.unsubscribe ??= this.console.subscribe((text) => this.push(text));
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0 || !this.unsubscribe) return;
      this.unsubscribe();
      this.unsubscribe = null;
      this.partial = "";
    };
  }

  get listening(): boolean {
    return this.listeners.size > 0;
  }

  /** Text as the console buffer delivers it. */
  push(text: string): void {
    const pieces = (this.partial + text).split("\n");
    const last = pieces.pop()!;
    // A line longer than anyone looks at keeps only its start (twice the bound: terminal sequences are removed later).
    this.partial = last.length > MAX_TRIGGER_LINE * 2 ? last.slice(0, MAX_TRIGGER_LINE * 2) : last;
    for (const raw of pieces) {
      if (raw.includes(DAEMON_SEQUENCE)) continue;
      if (!this.withinBudget()) {
        this.skipped++;
        this.skippedTotal++;
        continue;
      }
      const started = performance.now();
      const line = visibleLine(raw);
      for (const listener of [...this.listeners]) listener(line);
      this.spent += performance.now() - started;
    }
  }

  private withinBudget(): boolean {
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.inWindow = 0;
      this.spent = 0;
      if (this.skipped > 0 && now - this.reportedAt >= REPORT_MS) {
        this.reportedAt = now;
        // A daemon line: this very filter leaves it out.
        this.console.daemon(message("daemon.task.linesSkipped", { count: this.skipped }));
        this.skipped = 0;
      }
    }
    if (this.inWindow >= LINES_PER_SECOND || this.spent >= MATCH_BUDGET_MS) return false;
    this.inWindow++;
    return true;
  }
}
