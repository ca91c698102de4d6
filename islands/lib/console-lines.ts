// The console's text model, shared by the server render and the ServerConsole island: turning
// console text into HTML lines (ANSI colours through ansi_up, which escapes HTML; the daemon's own
// lines get a chip), the byte-capped line buffer (cap 4 MiB, trimmed to 2 MiB),
// and the pause/refresh feed that batches screen updates (at most one per 500 ms).
import { AnsiUp } from "ansi_up";
import { CONSOLE_BUFFER_CAP, CONSOLE_BUFFER_TRIM, DAEMON_MARKER } from "../../core/live";
import { decodeDaemonLine, renderMessage } from "../../core/live/daemon-message";
import type { Translate } from "../../core/i18n/translate";

/** The console screen refreshes at most this often. */
export const CONSOLE_REFRESH_MS = 500;

let ansi: AnsiUp | undefined;
const RESET = "\x1b[0m";
/** Control characters, ESC among them. */
const CONTROL = /[\x00-\x1f\x7f]/g;

function converter(): AnsiUp {
  if (!ansi) {
    ansi = new AnsiUp();
    // Classes, not inline colours, so the 16 base colours follow the theme and dark mode.
    ansi.use_classes = true;
  }
  return ansi;
}

/** What a terminal shows of one line: a carriage return starts the line over (progress bars). */
function visible(line: string): string {
  const end = line.endsWith("\r") ? line.slice(0, -1) : line;
  const cr = end.lastIndexOf("\r");
  return cr < 0 ? end : end.slice(cr + 1);
}

/** Terminal sequences that set a title or carry data (OSC), which ansi_up would print; hyperlinks (OSC 8) stay. */
const OSC = /\x1b\](?!8;)[^\x07\x1b]*(?:\x07|\x1b\\)/g;
/** A hyperlink's opening or closing sequence (OSC 8), whole. */
const HYPERLINK = /\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\)/g;
/** Every escape sequence the converter reads whole: colours and styles (CSI), and hyperlinks. */
const WHOLE_SEQUENCE = new RegExp(`\\x1b\\[[0-?]*[ -/]*[@-~]|${HYPERLINK.source}`, "g");

/**
 * The line with nothing the converter would keep for later: an escape that does not start a whole
 * sequence is dropped, and hyperlinks unless they open and close within the line. ansi_up holds a
 * sequence it has not seen the end of (a hyperlink waits for its closing one) across calls, and
 * one converter serves every line of every console the panel renders: a line left open hid every
 * other server's console from whoever opened it and handed its lines to the next page that closed
 * it, another user's included.
 */
function wholeSequencesOnly(text: string): string {
  if (!text.includes("\x1b")) return text;
  const links = text.match(HYPERLINK)?.length ?? 0;
  const kept = links % 2 === 0 ? text : text.replace(HYPERLINK, "");
  let out = "";
  let last = 0;
  for (const match of kept.matchAll(WHOLE_SEQUENCE)) {
    out += kept.slice(last, match.index).replaceAll("\x1b", "") + match[0];
    last = match.index! + match[0].length;
  }
  return out + kept.slice(last).replaceAll("\x1b", "");
}

/**
 * Quake-engine colour codes (OpenArena, ioquake3, Teeworlds' chat in some mods): "^1" to "^7" set
 * the colour, "^0" black, as the game's own console draws them; turned into the ANSI colour of
 * the same name so they follow the theme like any other.
 */
const QUAKE_COLOUR = /\^([0-7])/g;
const QUAKE_TO_ANSI = ["30", "31", "32", "33", "34", "36", "35", "37"];

/**
 * One console line as HTML. A line of the daemon's own says its message in the reader's language
 * (`t`) and wears the chip. Only a line that carries the daemon's message sequence is one: the
 * node strips that sequence from everything a process writes (core/live/process-text), so a
 * process printing "[kiln] " or the sequence itself gets neither chip nor translation. Every line
 * starts from plain attributes (colours do not carry from one line to the next), so any line can
 * be rendered alone and the result never depends on what came before it; that keeps the server
 * render, the browser and trimming in agreement.
 */
export function renderLine(line: string, t: Translate): string {
  let text = visible(line);
  let chip = "";
  const decoded = text.startsWith(DAEMON_MARKER) ? decodeDaemonLine(text) : null;
  if (decoded?.message) {
    // The node's own words carry no terminal sequences: a value in them (a task's name) that holds
    // one would dress a link of the user's in the chip only the node's lines wear.
    text = renderMessage(decoded.message, t).replace(CONTROL, "");
    chip = `<span class="console-chip">${escapeHtml(t("console.daemon"))}</span>`;
  } else {
    if (decoded) text = decoded.text;
    if (text.includes("^")) text = text.replace(QUAKE_COLOUR, (_, digit: string) => `\x1b[${QUAKE_TO_ANSI[Number(digit)]}m`);
  }
  text = wholeSequencesOnly(text.replace(OSC, ""));
  return `<div class="console-line">${chip}${converter().ansi_to_html(text + RESET)}</div>`;
}

export function renderLines(lines: readonly string[], t: Translate): string {
  let html = "";
  for (const line of lines) html += renderLine(line, t);
  return html;
}

/** The HTML of a whole log as the console shows it (kept to the buffer cap like the live view). */
export function renderLog(text: string, t: Translate): string {
  const buffer = new ConsoleBuffer();
  buffer.append(text);
  return renderLines(buffer.lines, t);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** UTF-8 length without allocating (the cap is in bytes, like the daemon's buffer). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) i++, (bytes += 2); // a surrogate pair: 4 bytes for 2 units
    else bytes += 2;
  }
  return bytes;
}

/** What changed since the last `takeChanges()`: the screen drops its lines before `start` and
 * those from `from` on, then appends `lines` (absolute line numbers `from` onwards). */
export interface ConsoleChanges {
  start: number;
  from: number;
  lines: string[];
}

/**
 * The console's lines, capped in bytes. Text arrives in chunks that need not end at a line
 * break; the last line stays open until its newline comes. Lines are numbered from the first
 * line ever received, so a screen can mirror the buffer by applying `takeChanges()`.
 */
export class ConsoleBuffer {
  /** Absolute number of `lines[0]`. */
  start = 0;
  lines: string[] = [];
  bytes = 0;
  /** The last line has not ended yet. */
  private open = false;
  /** The first absolute line changed since the last takeChanges(). */
  private dirty = 0;

  constructor(
    readonly cap = CONSOLE_BUFFER_CAP,
    readonly trimTo = CONSOLE_BUFFER_TRIM,
  ) {}

  append(text: string | readonly string[]): void {
    if (typeof text !== "string") text = text.join("");
    if (!text) return;
    const parts = text.split("\n");
    const closed = parts[parts.length - 1] === "";
    if (closed) parts.pop();
    this.bytes += utf8Length(text);
    let i = 0;
    if (this.open && this.lines.length > 0) {
      const last = this.lines.length - 1;
      this.lines[last] += parts[0]!;
      this.dirty = Math.min(this.dirty, this.start + last);
      i = 1;
    }
    if (i < parts.length) this.dirty = Math.min(this.dirty, this.start + this.lines.length);
    for (; i < parts.length; i++) this.lines.push(parts[i]!);
    this.open = !closed;
    if (this.bytes > this.cap) this.trim();
  }

  /** Drops the oldest lines until the buffer is back under the trim size. */
  private trim(): void {
    let drop = 0;
    while (this.bytes > this.trimTo && drop < this.lines.length - 1) {
      this.bytes -= utf8Length(this.lines[drop]!) + 1;
      drop++;
    }
    if (drop > 0) {
      this.lines.splice(0, drop);
      this.start += drop;
    }
    // One line longer than the trim size on its own: keep its end.
    if (this.bytes > this.trimTo && this.lines.length === 1) {
      const only = this.lines[0]!;
      this.lines[0] = only.slice(only.length - this.trimTo);
      this.bytes = utf8Length(this.lines[0]) + (this.open ? 0 : 1);
      this.dirty = Math.min(this.dirty, this.start);
    }
  }

  /** The last line has not ended yet (a prompt, a progress bar). */
  get lineOpen(): boolean {
    return this.open;
  }

  takeChanges(): ConsoleChanges {
    const from = Math.max(this.dirty, this.start);
    const changes = { start: this.start, from, lines: this.lines.slice(from - this.start) };
    this.dirty = this.start + this.lines.length;
    return changes;
  }
}

/** Where a feed shows its lines, and its "new lines while paused" marker. */
export interface ConsoleScreen {
  apply(changes: ConsoleChanges): void;
  unseen?(unseen: boolean): void;
}

/**
 * Feeds console text to a screen: batches refreshes (at most one per CONSOLE_REFRESH_MS), and
 * while paused keeps collecting without refreshing, raising the "new lines" marker instead.
 */
export class ConsoleFeed {
  readonly buffer: ConsoleBuffer;
  paused = false;
  /** New text arrived while paused (the dot badge on the pause button). */
  unseen = false;
  private readonly refreshMs: number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastRefresh = 0;

  constructor(
    private readonly screen: ConsoleScreen,
    options: { buffer?: ConsoleBuffer; refreshMs?: number } = {},
  ) {
    this.buffer = options.buffer ?? new ConsoleBuffer();
    this.refreshMs = options.refreshMs ?? CONSOLE_REFRESH_MS;
  }

  push(text: string | readonly string[]): void {
    if (text.length === 0) return;
    this.buffer.append(text);
    if (this.paused) {
      if (!this.unseen) {
        this.unseen = true;
        this.screen.unseen?.(true);
      }
      return;
    }
    this.schedule();
  }

  pause(): void {
    this.paused = true;
    this.cancel();
  }

  resume(): void {
    this.paused = false;
    if (this.unseen) {
      this.unseen = false;
      this.screen.unseen?.(false);
    }
    this.refresh();
  }

  /** Applies what changed now (also used once after hydration). */
  refresh(): void {
    this.cancel();
    this.lastRefresh = Date.now();
    this.screen.apply(this.buffer.takeChanges());
  }

  dispose(): void {
    this.cancel();
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastRefresh + this.refreshMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.paused) this.refresh();
    }, wait);
  }

  private cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
