// The daemon's own console lines, in any reader's language. The node writes each line as its
// English text (what a PufferPanel client or a raw log shows) followed by an invisible terminal
// sequence carrying the message key and its values; the stored buffer so names no reader's
// language, and the panel's console renders the key in the viewer's locale. A value may itself be
// a message (a task's name and what its step said), and an error's reason is its catalogue key
// ("errors.ErrNotFound") with the error's metadata.
//
// A server process can print the same bytes, as it can print "[kiln] " today: decoding accepts only
// keys under daemon. and errors., values of plain shapes, and the result is escaped like any line.
import type { Params, Translate } from "../i18n/translate";
import { DAEMON_MARKER } from "./index";

export type MessageValue = string | number | string[] | DaemonMessage;
export interface DaemonMessage { key: string; values?: Record<string, MessageValue> }

/** OSC 7701, a private number: terminals and xterm.js ignore it, ansi_up drops it. */
const OSC_START = "\x1b]7701;";
const OSC_END = "\x07";
const KEY = /^(daemon|errors)\.[A-Za-z0-9.]+$/;
const MAX_DEPTH = 3;

export function message(key: string, values?: Record<string, MessageValue>): DaemonMessage {
  return values ? { key, values } : { key };
}

/** Text from outside (a process's output, a docker pull's progress) said as it is. */
export function verbatim(text: string): DaemonMessage {
  return { key: "daemon.text", values: { text } };
}

/** The message in the reader's words, nested messages first. */
export function renderMessage(m: DaemonMessage, t: Translate): string {
  if (!m.values) return t(m.key);
  const params: Params = {};
  for (const [name, value] of Object.entries(m.values)) params[name] = isMessage(value) ? renderMessage(value, t) : value;
  return t(m.key, params);
}

/** One console line: the marker, the English text, the message sequence, a newline. */
export function encodeDaemonLine(m: DaemonMessage, english: Translate): string {
  const text = renderMessage(m, english).replace(/[\r\n]+/g, " ");
  // JSON.stringify escapes every control character, so the payload cannot end the sequence early.
  return `${DAEMON_MARKER}${text}${OSC_START}${JSON.stringify(m)}${OSC_END}\n`;
}

/** A line's text without the message sequence, and the message if it is one Kiln would write. */
export function decodeDaemonLine(line: string): { text: string; message?: DaemonMessage } {
  const start = line.indexOf(OSC_START);
  if (start < 0) return { text: line };
  const end = line.indexOf(OSC_END, start);
  if (end < 0) return { text: line.slice(0, start) };
  const text = line.slice(0, start) + line.slice(end + 1);
  try {
    const parsed: unknown = JSON.parse(line.slice(start + OSC_START.length, end));
    return isMessage(parsed) && isSound(parsed, 0) ? { text, message: parsed } : { text };
  } catch {
    return { text };
  }
}

function isMessage(value: unknown): value is DaemonMessage {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as DaemonMessage).key === "string";
}

function isSound(m: DaemonMessage, depth: number): boolean {
  if (depth > MAX_DEPTH || !KEY.test(m.key)) return false;
  if (m.values === undefined) return true;
  if (typeof m.values !== "object" || m.values === null || Array.isArray(m.values)) return false;
  return Object.values(m.values).every((v) =>
    typeof v === "string" || typeof v === "number" || (Array.isArray(v) && v.every((s) => typeof s === "string")) || (isMessage(v) && isSound(v, depth + 1)),
  );
}
