// The socket channel's vocabulary, shared by the daemon, the panel's proxy and the console island.
import type { ResourceLimits } from "../definition/limit-values";
import type { CrashState } from "../crash/identify";
import type { PlayersState } from "../players/players-state";
import { isErrorBody, type ErrorBody } from "../errors";
import { POWER_ACTIONS } from "../contract/power-actions";

/**
 * Messages a client sends. Their fields sit beside `type`, as PufferPanel's daemon and its
 * clients write them: `{type:"console", command}`,
 * `{type:"replay", since}`, `{type:"file", action, path}`. The older Kiln form with the fields
 * in `data` is still read (./guard), the fields beside `type` winning.
 */
export const CLIENT_MESSAGES = [...POWER_ACTIONS, "stat", "status", "replay", "console", "file"] as const;
export type ClientMessageType = (typeof CLIENT_MESSAGES)[number];

/** Messages the daemon sends, as `{type, data}`. */
export const SERVER_MESSAGES = ["status", "stat", "console", "file", "players"] as const;
export type ServerMessageType = (typeof SERVER_MESSAGES)[number];

export const FILE_ACTIONS = ["get", "create", "delete"] as const;
export type FileAction = (typeof FILE_ACTIONS)[number];

export interface LiveMessage<T extends string = string, D = unknown> {
  type: T;
  data?: D;
}

/**
 * The answer to a refused client message: the catalogue error, with no `type`. PufferPanel's
 * daemon answers a message it does not know the same way (`{error}`), and its clients pass
 * every `{type, data}` to the listeners of that type: its early-2023 browser client would raise a
 * `{type:"error"}` as its socket's own "error" event (the socket looking broken), while a
 * message without a type reaches no listener there nor in puffMob. Kiln's islands read
 * `error` and show the reason.
 */
export type LiveRefusal = ErrorBody;

export function isRefusal(message: unknown): message is LiveRefusal {
  return isErrorBody(message) && !("type" in message);
}

/**
 * A console epoch from outside (socket `replay` since, GET …/console?time=) in milliseconds:
 * PufferPanel's clients may send a Unix time in seconds (their own clock), which read as
 * milliseconds would replay the whole buffer. Below 10^11 (1973 in milliseconds, the year
 * 5138 in seconds) a value is seconds. Not a number, or negative: 0, everything.
 */
export function epochMillis(value: unknown): number {
  const n = Number(value ?? 0);
  if (!Number.isFinite(n) || n <= 0) return 0;
  return n < 1e11 ? n * 1000 : n;
}

/**
 * `starting`: the server is not ready yet: its pre-start steps run, or its process runs
 * but its ready marker has not appeared (`running` is true then). Absent from older nodes.
 */
export interface StatusData {
  running: boolean;
  installing: boolean;
  starting?: boolean;
  /** Why the server last stopped unasked, or its install failed (core/crash); until its next start. */
  crash?: CrashState;
}
/** The most server ids one call for several servers may name (?ids=a,b,…): one page of a list. */
export const MAX_IDS_PER_CALL = 100;

/** One server in the node's listStatuses answer: its status and players, as `status` and `players` answer them. */
export interface ListStatus {
  status: StatusData;
  players: PlayersState | null;
}
export interface StatData {
  cpu: number;
  memory: number;
  /** Bytes the server's folder takes, as last measured (null: not yet); absent from older nodes. */
  disk?: number | null;
  /** The server's resource limits; absent from older nodes. */
  limits?: ResourceLimits;
  /** Seconds since the server last became running (null: not running); absent from older nodes. */
  uptime?: number | null;
}
/**
 * A console message: the text written since `epoch` of the previous one. Over the socket `epoch`
 * is milliseconds; GET …/console answers PufferPanel's Unix seconds there and milliseconds in
 * `epochMs` (daemon/servers/console-answer).
 */
export interface ConsoleData { logs: string | string[]; epoch?: number; epochMs?: number }

/** Written before every line the daemon itself puts on a server's console. */
export const DAEMON_MARKER = "[kiln] ";

/** The console buffer's cap, and what it is trimmed to when the cap is passed. */
export const CONSOLE_BUFFER_CAP = 4194304;
export const CONSOLE_BUFFER_TRIM = 2097152;
/**
 * What the smallest entry of the console buffer counts toward its cap: an entry costs the node
 * about a hundred bytes and a replay its own array slot whatever its text, so output written a
 * byte at a time is held to CONSOLE_BUFFER_CAP / 64 entries (65,536), not millions.
 */
export const CONSOLE_ENTRY_MIN_BYTES = 64;
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
