// GET …/console: the console since a time, in PufferPanel's units and in Kiln's. PufferPanel's
// daemon speaks Unix seconds (its buffer stamps lines with time.Now().Unix(), answers the newest
// line's second as `epoch` and gives, for ?time=S, the lines of the seconds after S), and its
// clients poll with that epoch; Kiln's own clients count in milliseconds (`epochMs`, beside it).
//   ?time=S in seconds (below 10^11): the lines of the seconds after S, up to the start of the
//     current second; `epoch` the last second fully given. The lines of the second still running
//     come with the next poll, so a client polling in seconds neither misses nor repeats a line.
//   ?time=M in milliseconds (10^11 and above: a date after 1973): the lines from M on, up to now.
//   no time, or 0: everything, up to now.
//   ?tail=N (Kiln's, with any of the above): only the newest N characters of that answer, cut at
//     an entry (the oldest kept entry may be cut at its start). A page showing the end of the
//     console asks for that end, not for a buffer of up to 4 MiB it would throw away.
// In all three `epochMs` is where a client counting in milliseconds continues (at or after), and
// `epoch` the second after which one counting in seconds continues: after a read up to now, the
// one before the current, so the step from a full read to polling in seconds may give the lines
// of that one second twice, never miss one.
import type { ConsoleBuffer } from "./console-buffer";

export interface ConsoleAnswer {
  logs: string[];
  /** Unix seconds: ask again with ?time=epoch for the lines after it. */
  epoch: number;
  /** Milliseconds: ask again with ?time=epochMs for the lines from it on. */
  epochMs: number;
}

/** Below this a time is Unix seconds (10^11 ms is 1973; 10^11 s is the year 5138). */
const SECONDS_BELOW = 1e11;

export function consoleAnswer(buffer: ConsoleBuffer, time: unknown, now = Date.now(), tail?: unknown): ConsoleAnswer {
  const n = Number(time ?? 0);
  const currentSecond = Math.floor(now / 1000) * 1000;
  const limit = tailLimit(tail);
  if (Number.isFinite(n) && n > 0 && n < SECONDS_BELOW) {
    const { logs } = buffer.since((Math.floor(n) + 1) * 1000, currentSecond);
    return { logs: newest(logs, limit), epoch: currentSecond / 1000 - 1, epochMs: currentSecond };
  }
  const { logs, epoch } = buffer.since(Number.isFinite(n) && n > 0 ? n : 0, now + 1);
  return { logs: newest(logs, limit), epoch: Math.floor(epoch / 1000) - 1, epochMs: epoch };
}

/** ?tail= as a count of characters; absent, or not a positive whole number, is no limit. */
function tailLimit(tail: unknown): number {
  const n = Number(tail);
  return tail !== undefined && Number.isSafeInteger(n) && n > 0 ? n : Infinity;
}

/** The newest entries of `logs` within `limit` characters; the oldest kept one cut at its start to fit. */
function newest(logs: string[], limit: number): string[] {
  if (limit === Infinity) return logs;
  let room = limit;
  let first = logs.length;
  while (first > 0 && room > 0) {
    first--;
    room -= logs[first]!.length;
  }
  const kept = logs.slice(first);
  if (room < 0) kept[0] = kept[0]!.slice(-room);
  return kept;
}
