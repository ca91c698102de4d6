// Watches a starting server's console for its ready markers (run.readyMarkers, an egg's "done"
// lines): output arrives in chunks that may split a line, so whole lines are put together first;
// each is tried as written and without its colour codes (Wings tries one or the other, as the
// egg's strip_ansi says: trying both finds the line either way).
import { readyMatcher, type ReadyMatcher } from "../../core/definition/ready-markers";
import { withoutTerminalSequences } from "../../core/live/terminal-sequences";

/** A line longer than this is tried by its start only: a marker sits in a log line, not a megabyte of output. */
const MAX_LINE = 64 * 1024;

export class ReadyWatch {
  private readonly matches: ReadyMatcher;
  private partial = "";

  constructor(markers: readonly string[]) {
    this.matches = readyMatcher(markers);
  }

  /** Output as it comes; true once a whole line holds a marker. */
  push(text: string): boolean {
    const lines = (this.partial + text).split(/\r?\n|\r/);
    this.partial = lines.pop()!.slice(0, MAX_LINE);
    return lines.some((line) => this.test(line.slice(0, MAX_LINE)));
  }

  private test(line: string): boolean {
    return this.matches(line) || this.matches(withoutTerminalSequences(line));
  }
}
