// Who is on a server, as its node last asked the game (the template's `query`): the answer's
// figures, or why there is none. The wire shape of GET /api/servers/{id}/players, the node's
// players operation and the socket's `players` message; one type for all three.

export interface PlayerEntry {
  name: string;
  /** The game's own id of the player (a Minecraft UUID) where the protocol gives one. */
  id?: string;
}

export interface PlayersAnswer {
  online: number;
  max: number;
  /** Names where the protocol gives them (some give only counts: then fewer than `online`, or none). */
  players: PlayerEntry[];
  version?: string;
  motd?: string;
  latencyMs: number;
  /** Milliseconds since the epoch. */
  queriedAt: number;
}

export interface PlayersUnavailable {
  error: "ErrQueryUnavailable";
  /** One of QUERY_REASONS: the template declares no query, the game did not answer in time, or its answer was not one we read. */
  reason: QueryReason;
  queriedAt: number;
}

export type PlayersState = PlayersAnswer | PlayersUnavailable;

/** Why a server has no players figure; each has a locale key `players.reason.<reason>`. */
export const QUERY_REASONS = ["notDeclared", "noAnswer", "badAnswer", "tooLarge", "unknownType", "notQueriedYet"] as const;
export type QueryReason = (typeof QUERY_REASONS)[number];

export function isPlayersAnswer(state: PlayersState | null | undefined): state is PlayersAnswer {
  return !!state && !("error" in state);
}

/**
 * The most players a count may say: more than any game server holds. A game's answer is its
 * owner's to write, so a count outside 0…this (negative, fractional, infinite, a billion) is no
 * answer at all; the panel's metrics read no more either (server/metrics/node-figures).
 */
export const MAX_PLAYER_COUNT = 1_000_000;

export function isPlayerCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value <= MAX_PLAYER_COUNT;
}

/** What the server list carries per server: counts only, null when not known (stopped, no query, no answer). */
export type PlayerCounts = { online: number; max: number } | null;

export function playerCounts(state: PlayersState | null | undefined): PlayerCounts {
  return isPlayersAnswer(state) ? { online: state.online, max: state.max } : null;
}

/** Two states say the same to a viewer (the socket's `players` goes out only on a change; queriedAt and latency move every time). */
export function samePlayers(a: PlayersState | null, b: PlayersState | null): boolean {
  if (!a || !b) return a === b;
  if (isPlayersAnswer(a) !== isPlayersAnswer(b)) return false;
  if (!isPlayersAnswer(a) || !isPlayersAnswer(b)) return (a as PlayersUnavailable).reason === (b as PlayersUnavailable).reason;
  return a.online === b.online && a.max === b.max && a.version === b.version && a.motd === b.motd && a.players.length === b.players.length && a.players.every((p, i) => p.name === b.players[i]!.name && p.id === b.players[i]!.id);
}
