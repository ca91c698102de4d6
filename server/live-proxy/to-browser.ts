// What the node pushes, on its way to the browser: only what the user's current flags let them
// see, and console output skipped while the browser is not reading (the node's rule, at the
// panel's end: without it every stalled socket would hold the whole flood in the panel's memory).
import type { ConsoleData, LiveMessage } from "../../core/live";
import { MAX_BUFFERED_BYTES, skippedNotice } from "../../core/live/limits";
import { english } from "../../locales/english";
import { allows } from "../services/servers";
import { receiveRequirement } from "../../core/contract";
import type { ProxySocket } from "./socket-data";

/** The node writes every message as JSON.stringify({ type, data }): its type is read without parsing the output it carries. */
const TYPE_PREFIX = /^\{"type":"([a-z]+)"/;

/** The node's refusal of a message this browser sent (`{error}`, no type: core/live LiveRefusal). */
const REFUSAL_PREFIX = '{"error":';

export function forwardToBrowser(ws: ProxySocket, text: string): void {
  if (text.startsWith(REFUSAL_PREFIX)) {
    ws.send(text);
    return;
  }
  const type = TYPE_PREFIX.exec(text)?.[1] ?? parse(text)?.type;
  if (!type || !receiveRequirement(type).some((needs) => allows(ws.data.access, needs))) return;
  if (type !== "console") {
    ws.send(text);
    return;
  }
  if (ws.getBufferedAmount() > MAX_BUFFERED_BYTES) {
    // Counted as the frame's size, within a few percent of the output's (JSON escapes): parsing
    // megabytes only to count and drop them is what would make a stalled socket expensive.
    ws.data.skipped += Buffer.byteLength(text);
    return;
  }
  const data = ws.data.skipped > 0 ? (parse(text)?.data as ConsoleData | undefined) : undefined;
  if (data) {
    text = JSON.stringify({ type: "console", data: withNotice(data, skippedNotice(ws.data.skipped, english)) });
    ws.data.skipped = 0;
  }
  ws.send(text);
}

function parse(text: string): LiveMessage | null {
  try {
    const message = JSON.parse(text);
    return message && typeof message.type === "string" ? message : null;
  } catch {
    return null;
  }
}

function withNotice(data: ConsoleData, notice: string): ConsoleData {
  return { ...data, logs: Array.isArray(data.logs) ? [notice, ...data.logs] : notice + data.logs };
}
