// Terminal sequences in a server's output, once, for whoever reads its lines for meaning (ready
// markers, console triggers): CSI (colours, cursor; 7-bit "ESC [" or the 8-bit 0x9b), OSC (titles,
// links) up to BEL or ST, escapes with intermediate bytes (character sets: "ESC ( B") and the
// two-character escapes. Each alternative's character classes are disjoint from what follows
// them, so a match never backtracks further than its own run and the whole pass is linear in the
// line: the output is the server's, and a pattern that backtracked (the "ansi-regex" one, whose
// parameter classes both took ';') spent quadratic time on one ESC and 40,000 semicolons.
export const TERMINAL_SEQUENCE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]+[0-~]|\x1b[@-Z\\-_]/g;

/** `text` without its terminal sequences. */
export function withoutTerminalSequences(text: string): string {
  return text.includes("\x1b") || text.includes("\x9b") ? text.replace(TERMINAL_SEQUENCE, "") : text;
}
