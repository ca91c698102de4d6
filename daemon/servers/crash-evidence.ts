// What the node reads to name a crash (core/crash/identify): the end of the console since the
// process started (its own output only: the daemon's lines, which alone carry the OSC 7701
// sequence, are left out), and, through the jail, the newest crash report, the newest hs_err file
// and the end of logs/latest.log, each only when written since the start.
//
// Everything here is read from a folder the server (and anyone with its files) controls, so every
// read is bounded and goes through the jail: a name that leads out of the folder (a symlink,
// a hard link), a FIFO or a folder under a crash report's name is skipped, never followed; a file
// is read only in its last EVIDENCE_BYTES; a crash-reports folder is listed up to MAX_LISTED
// names. Control characters and escape sequences are removed, so a line read here can neither
// move a terminal nor end the DAEMON line that quotes it.
import { lstatSync, opendirSync, readSync } from "node:fs";
import { DAEMON_SEQUENCE } from "../../core/live/process-text";
import type { CrashSource } from "../../core/crash/identify";
import { withRegularFile } from "../files/open-regular";
import type { Jail } from "../files/jail";

/** The most of each source read: its last 64 KiB. */
export const EVIDENCE_BYTES = 64 * 1024;
/** The most names of a folder looked at for its newest file. */
export const MAX_LISTED = 1000;
/** A file changed this long before the start still counts (clocks, coarse file times). */
const CLOCK_SLACK_MS = 2000;

const ESCAPES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?/g;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** A line as text only: no escape sequence, no control character but the tab. */
export function plainLine(line: string): string {
  return line.replace(ESCAPES, "").replace(CONTROLS, "");
}

function lines(text: string, whole: boolean): string[] {
  const all = text.split("\n").map(plainLine);
  while (all.length > 0 && all[all.length - 1]!.trim() === "") all.pop();
  // A tail read begins inside a line: that part is not a line of its own (unless it is the only one).
  if (!whole && all.length > 1) all.shift();
  return all;
}

/** The process's output since `since` (epoch ms), its last EVIDENCE_BYTES. */
export function consoleSource(logs: readonly string[]): CrashSource {
  let text = "";
  for (let i = logs.length - 1; i >= 0 && text.length < EVIDENCE_BYTES; i--) text = logs[i]! + text;
  const whole = text.length <= EVIDENCE_BYTES;
  if (!whole) text = text.slice(-EVIDENCE_BYTES);
  const own = text.split("\n").filter((line) => !line.includes(DAEMON_SEQUENCE)).join("\n");
  return { name: "console", lines: lines(own, whole), whole: false };
}

/** The last EVIDENCE_BYTES of a regular file in the folder, or null when it is not one (or not there). */
export function readTail(jail: Jail, path: string): CrashSource | null {
  return withRegularFile(jail, path, ({ fd, stats }) => {
    const size = stats.size;
    const length = Math.min(size, EVIDENCE_BYTES);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, size - length + read);
      if (n <= 0) break;
      read += n;
    }
    const whole = size <= EVIDENCE_BYTES;
    return { name: path, lines: lines(buffer.subarray(0, read).toString("utf8"), whole), whole };
  });
}

/** The newest regular file of `folder` whose name `wanted` accepts, changed at or after `since`. */
function newest(jail: Jail, folder: string, wanted: (name: string) => boolean, since: number): string | null {
  try {
    return jail.inFolder(folder, (held) => {
      const dir = opendirSync(held);
      let best: { name: string; time: number } | null = null;
      try {
        for (let i = 0; i < MAX_LISTED; i++) {
          const entry = dir.readSync();
          if (!entry) break;
          // Links are not followed here (readTail would refuse one out of the folder anyway).
          if (!entry.isFile() || !wanted(entry.name)) continue;
          const time = lstatSync(`${held}/${entry.name}`).mtimeMs;
          if (time >= since - CLOCK_SLACK_MS && (!best || time > best.time)) best = { name: entry.name, time };
        }
      } finally {
        dir.closeSync();
      }
      return best ? (folder ? `${folder}/${best.name}` : best.name) : null;
    });
  } catch {
    return null;
  }
}

const CRASH_REPORT = /^crash-[0-9A-Za-z_.-]{1,100}\.txt$/;
const HS_ERR = /^hs_err_pid[0-9]{1,10}\.log$/;

/** The server's own crash files written since `since`: newest crash report, newest hs_err, latest.log. */
export function fileSources(jail: Jail, since: number): CrashSource[] {
  const paths = [
    newest(jail, "crash-reports", (name) => CRASH_REPORT.test(name), since),
    newest(jail, "", (name) => HS_ERR.test(name), since),
    newest(jail, "logs", (name) => name === "latest.log", since),
  ];
  return paths.flatMap((path) => {
    const source = path ? readTail(jail, path) : null;
    return source ? [source] : [];
  });
}
