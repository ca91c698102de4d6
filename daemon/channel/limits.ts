// The socket channel's bounds, so a flood of sockets or messages cannot take the node down. The
// per-socket rules are shared with the panel's proxy (core/live/limits).
export { MAX_MESSAGE_BYTES, MAX_FRAME_BYTES, MESSAGE_RATE, ACTION_RATE, MAX_REFUSALS, MAX_BUFFERED_BYTES } from "../../core/live/limits";

/** Open sockets per server; the next upgrade is refused with ErrTooManyRequests. */
export const MAX_SOCKETS_PER_SERVER = 20;
/** Open sockets on the whole node. */
export const MAX_SOCKETS = 500;
