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
/** One or more ESCs (a run of them could re-form the introducer once one is dropped) before "]7701;". */
const FORGED = /\x1b+(?=\]7701;)/g;

/** Removes what no process may write; stateless, for text that ends at a line break. */
export function cleanProcessText(text: string): string {
  let out = text.includes("\0") ? text.replaceAll("\0", "") : text;
  if (out.includes(REST)) out = out.replace(FORGED, "");
  return out;
}

/** The same for a stream of chunks: one per source, so a sequence split across chunks is caught. */
export class ProcessTextFilter {
  private held = "";

  push(chunk: string): string {
    const text = cleanProcessText(this.held + chunk);
    let keep = partialIntroducer(text);
    // ESCs just before it stay with it: emitted now, one could open the introducer completed later.
    if (keep > 0) while (keep < text.length && text[text.length - keep - 1] === "\x1b") keep++;
    this.held = text.slice(text.length - keep);
    return keep === 0 ? text : text.slice(0, text.length - keep);
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
