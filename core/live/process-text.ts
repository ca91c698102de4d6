// Text a server's process (or its network console) writes, made safe to store beside the daemon's
// own lines. The daemon marks its lines with an OSC 7701 sequence (./daemon-message); the console
// honours a line as the node's only when it carries that sequence, so no byte sequence a process
// writes may contain it. The rule: every ESC that opens "ESC ] 7701 ;" in process text is dropped
// (what follows shows as plain text). A chunk may end in the middle of the introducer and the next
// one complete it, so a trailing partial introducer is held back until the next chunk decides.
// NUL bytes are dropped too: a terminal shows nothing for them, and telnet consoles (Teeworlds'
// econ) end every line with two.

export const DAEMON_SEQUENCE = "\x1b]7701;";
const REST = DAEMON_SEQUENCE.slice(1);

/** Removes what no process may write; stateless, for text that ends at a line break. */
export function cleanProcessText(text: string): string {
  const out = text.includes("\0") ? text.replaceAll("\0", "") : text;
  return out.includes(REST) ? withoutForgedRuns(out) : out;
}

/**
 * `text` without the run of ESCs before each "]7701;" (a run, since one ESC dropped from two could
 * re-form the introducer). Walked by hand, each ESC looked at once: the pattern /\x1b+(?=]7701;)/
 * tried every ESC of a run no introducer follows to its end, quadratic in the run (a process's
 * 60,000 ESCs then "x]7701;" held the node's thread for seconds).
 */
function withoutForgedRuns(text: string): string {
  let out = "";
  let from = 0;
  for (let at = text.indexOf(REST); at >= 0; at = text.indexOf(REST, at + REST.length)) {
    let start = at;
    while (start > from && text.charCodeAt(start - 1) === 0x1b) start--;
    out += text.slice(from, start);
    from = at;
  }
  return out + text.slice(from);
}

/** The same for a stream of chunks: one per source, so a sequence split across chunks is caught. */
export class ProcessTextFilter {
  private held = "";

  push(chunk: string): string {
    const text = cleanProcessText(this.held + chunk);
    const keep = partialIntroducer(text);
    if (keep === 0) {
      this.held = "";
      return text;
    }
    // ESCs just before it are dropped, not emitted: emitted now, one could open the introducer
    // completed later. Nor are they held: a process writing megabytes of ESCs would have them kept
    // and scanned again with every chunk. The held text is at most the introducer's length.
    let start = text.length - keep;
    while (start > 0 && text.charCodeAt(start - 1) === 0x1b) start--;
    this.held = text.slice(text.length - keep);
    return text.slice(0, start);
  }

  /** The source has ended: a partial introducer left over is an unfinished escape, dropped. */
  end(): void {
    this.held = "";
  }
}

/** How many characters at the end of `text` start the introducer without completing it. */
function partialIntroducer(text: string): number {
  const from = text.lastIndexOf("\x1b", text.length - 1);
  if (from < 0 || text.length - from >= DAEMON_SEQUENCE.length) return 0;
  const tail = text.slice(from);
  return DAEMON_SEQUENCE.startsWith(tail) ? tail.length : 0;
}
