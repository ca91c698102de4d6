// The socket channel's bounds, so a flood of sockets or messages cannot take the node down. The
// per-socket rules are shared with the panel's proxy (core/live/limits).
import { CONSOLE_BUFFER_CAP } from "../../core/live";

export { MAX_MESSAGE_BYTES, MAX_FRAME_BYTES, MESSAGE_RATE, ACTION_RATE, MAX_REFUSALS, MAX_BUFFERED_BYTES, MAX_SOCKETS_PER_SERVER, REPLAY_RATE } from "../../core/live/limits";

/** Open sockets on the whole node. */
export const MAX_SOCKETS = 500;

/**
 * Console text the node encodes for replays, in characters: per server, one whole buffer a second
 * on average and four at once; on the whole node, four a second and eight at once. Encoding a full
 * buffer takes the node's thread about 16 ms, so replays cost a server at most a few percent of it
 * and the node at most a tenth, however many sockets ask. Past either, ErrTooManyRequests.
 */
export const REPLAY_SERVER_BUDGET = { rate: CONSOLE_BUFFER_CAP, burst: 4 * CONSOLE_BUFFER_CAP };
export const REPLAY_NODE_BUDGET = { rate: 4 * CONSOLE_BUFFER_CAP, burst: 8 * CONSOLE_BUFFER_CAP };
/** How long the encoding of a whole, unchanged buffer is kept for the next replay of it. */
export const REPLAY_FRAME_KEEP_MS = 5000;
