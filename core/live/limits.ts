// What one live socket may send and be sent, shared by the node's channel and the panel's proxy
// in front of it, so a client meets the same rules whichever end it talks to.
import type { Translate } from "../i18n/translate";
import { encodeDaemonLine, message } from "./daemon-message";

/** A client message larger than this is refused with ErrMessageTooLarge. */
export const MAX_MESSAGE_BYTES = 4096;
/** Larger frames are not even read: Bun closes the socket (1009). */
export const MAX_FRAME_BYTES = 64 * 1024;
/** Any message: 20 a second on average, 40 at once. */
export const MESSAGE_RATE = { rate: 20, burst: 40 };
/** Console commands and power actions: 5 a second on average, 10 at once. */
export const ACTION_RATE = { rate: 5, burst: 10 };
/**
 * Console replays: one every 5 seconds on average, 3 at once. A replay may answer with the whole
 * console buffer (megabytes of JSON, encoded on the node's only thread); a client asks for one
 * when it opens or reopens its socket, so 3 at once is more than any of Kiln's or PufferPanel's
 * clients needs. Refused too (ErrTooManyRequests) while MAX_BUFFERED_BYTES wait unsent to it.
 */
export const REPLAY_RATE = { rate: 0.2, burst: 3 };
/**
 * Open sockets per server on a node; the next upgrade is refused with ErrTooManyRequests. The
 * panel's proxy keeps some of them for administrators (server/live-proxy/socket-places).
 */
export const MAX_SOCKETS_PER_SERVER = 20;
/** A client that keeps sending after this many refusals in a row is disconnected (close 1008). */
export const MAX_REFUSALS = 100;
/**
 * Console output to a client that does not read is skipped beyond this many queued bytes, and a
 * console line says so once it reads again. A quarter MiB is seconds of console even on a slow
 * link (so the console stays live instead of far behind), and twenty stalled sockets hold a few
 * megabytes, not the flood.
 */
export const MAX_BUFFERED_BYTES = 256 * 1024;

/** The console line that stands in for output a slow client missed (see MAX_BUFFERED_BYTES); `english` is locales/english's. */
export function skippedNotice(bytes: number, english: Translate): string {
  return encodeDaemonLine(message("daemon.outputSkipped", { count: bytes }), english);
}
