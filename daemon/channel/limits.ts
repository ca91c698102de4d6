// The socket channel's bounds, so a flood of sockets or messages cannot take the node down.

/** Open sockets per server; the next upgrade is refused with ErrTooManyRequests. */
export const MAX_SOCKETS_PER_SERVER = 20;
/** Open sockets on the whole node. */
export const MAX_SOCKETS = 500;
/** A client message larger than this is refused with ErrMessageTooLarge. */
export const MAX_MESSAGE_BYTES = 4096;
/** Larger frames are not even read: Bun closes the socket (1009). */
export const MAX_FRAME_BYTES = 64 * 1024;
/** Any message: 20 a second on average, 40 at once. */
export const MESSAGE_RATE = { rate: 20, burst: 40 };
/** Console commands and power actions: 5 a second on average, 10 at once. */
export const ACTION_RATE = { rate: 5, burst: 10 };
/** A client that keeps sending after this many refusals in a row is disconnected. */
export const MAX_REFUSALS = 100;
/** Output to a client that does not read is skipped beyond this many queued bytes. */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
