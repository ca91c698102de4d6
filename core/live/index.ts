// The socket channel's vocabulary (spec section 7 "Socket" and section 3 "Live messages"),
// shared by the daemon, the panel's proxy and the console island.
import type { ResourceLimits } from "../definition/limit-values";

/** Messages a client sends. */
export const CLIENT_MESSAGES = ["start", "stop", "kill", "restart", "install", "stat", "status", "replay", "console", "file"] as const;
export type ClientMessageType = (typeof CLIENT_MESSAGES)[number];

/** Messages the daemon sends. "error" answers a refused client message. */
export const SERVER_MESSAGES = ["status", "stat", "console", "file", "error"] as const;
export type ServerMessageType = (typeof SERVER_MESSAGES)[number];

export const FILE_ACTIONS = ["get", "create", "delete"] as const;
export type FileAction = (typeof FILE_ACTIONS)[number];

export interface LiveMessage<T extends string = string, D = unknown> {
  type: T;
  data?: D;
}

export interface StatusData { running: boolean; installing: boolean }
export interface StatData {
  cpu: number;
  memory: number;
  /** Bytes the server's folder takes, as last measured (null: not yet); absent from older nodes. */
  disk?: number | null;
  /** The server's resource limits (issue 16 part 4); absent from older nodes. */
  limits?: ResourceLimits;
}
/** A console message: the text written since `epoch` of the previous one. */
export interface ConsoleData { logs: string | string[]; epoch?: number }

/** Written before every line the daemon itself puts on a server's console. */
export const DAEMON_MARKER = "[kiln] ";

/** Spec section 9: the console buffer's cap, and what it is trimmed to when the cap is passed. */
export const CONSOLE_BUFFER_CAP = 4194304;
export const CONSOLE_BUFFER_TRIM = 2097152;
export const STATS_INTERVAL_MS = 3000;
export const CONSOLE_POLL_MS = 5000;

/**
 * Close codes of the panel's proxy when a socket's right to stay open ends (the 4000 range is
 * the application's): the login ended (logout, expiry, password change, account removed or
 * disabled), or the user may no longer see this server. The browser's client does not keep
 * knocking after either (./client).
 */
export const CLOSE_SESSION_ENDED = 4401;
export const CLOSE_ACCESS_REVOKED = 4403;
