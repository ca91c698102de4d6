// What the node pushes, on its way to the browser: only what the user's current flags let them
// see, and console output skipped while the browser is not reading (the node's rule, at the
// panel's end: without it every stalled socket would hold the whole flood in the panel's memory).
import type { ConsoleData, LiveMessage } from "../../core/live";
import { MAX_BUFFERED_BYTES, skippedNotice } from "../../core/live/limits";
import { allows } from "../services/servers";
import { receiveRequirement } from "../routes/proxy-rules";
import type { ProxySocket } from "./socket-data";

export function forwardToBrowser(ws: ProxySocket, text: string): void {
  const message = parse(text);
  if (!message || !allows(ws.data.access, receiveRequirement(message.type))) return;
  if (message.type !== "console") {
    ws.send(text);
    return;
  }
  if (ws.getBufferedAmount() > MAX_BUFFERED_BYTES) {
    ws.data.skipped += logsBytes(message.data as ConsoleData | undefined);
    return;
  }
  if (ws.data.skipped > 0) {
    text = JSON.stringify({ type: "console", data: withNotice(message.data as ConsoleData, skippedNotice(ws.data.skipped)) });
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

function logsBytes(data: ConsoleData | undefined): number {
  const logs = data?.logs ?? "";
  return Array.isArray(logs) ? logs.reduce((sum, line) => sum + Buffer.byteLength(line), 0) : Buffer.byteLength(logs);
}

function withNotice(data: ConsoleData, notice: string): ConsoleData {
  return { ...data, logs: Array.isArray(data.logs) ? [notice, ...data.logs] : notice + data.logs };
}
