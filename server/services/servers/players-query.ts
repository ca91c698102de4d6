// Who plays on a server, as its node last asked the game: for GET /api/servers/{id}/players. The
// caller must hold viewServerConsole or viewServerStats (core/players/players-access); a stopped
// server is ErrServerOffline, a running one without figures ErrQueryUnavailable with the reason
// (no query declared, no answer, an answer too large or not readable).
import { KilnError } from "../../../core/errors";
import { READ_PLAYERS } from "../../../core/players/players-access";
import { isPlayerCount, type PlayerCounts, type PlayersAnswer, type PlayersState } from "../../../core/players/players-state";
import type { Db } from "../../../db/client";
import type { SessionUser } from "../sessions";
import { callServerNode, type ServerEntry } from "./index";
import { askNode } from "./live-values";
import { allows, authorize, serverAccesses, type ServerAccess } from "./permissions";

export function mayReadPlayers(access: ServerAccess): boolean {
  return READ_PLAYERS.some((needs) => allows(access, needs));
}

/** For a list of servers: whose players `user` may read (the server-rendered list's counts). */
export async function playersReadableBy(db: Db, user: SessionUser, ids: readonly string[]): Promise<(id: string) => boolean> {
  const accesses = await serverAccesses(db, user, ids);
  return (id) => accesses.has(id) && mayReadPlayers(accesses.get(id)!);
}

export async function serverPlayers(db: Db, user: SessionUser, id: string): Promise<PlayersAnswer> {
  const access = await authorize(db, user, id, "view");
  if (!mayReadPlayers(access)) throw new KilnError("ErrNoPermission", { permission: READ_PLAYERS.join(" or ") });
  const { players } = (await (await callServerNode(db, id, "players")).json()) as { players: PlayersState | null };
  if (!players) throw new KilnError("ErrServerOffline", { id });
  if ("error" in players) throw new KilnError("ErrQueryUnavailable", { reason: players.reason });
  return players;
}

/**
 * How long a node's counts stand for the list API. The node itself asks each game every 15 s, so
 * a list read within this of the last one learns nothing new from asking again; and a list read
 * in a loop costs the node nothing.
 */
export const COUNTS_FRESH_MS = 5_000;

/** Per server: its counts as its node last gave them to a list, and when. One map per process. */
const recentCounts = new Map<string, { counts: PlayerCounts; at: number }>();
/** Past this many entries, those no longer fresh are dropped (servers deleted, lists not read). */
const RECENT_MAX = 10_000;

/**
 * A page of GET /api/servers with `players: {online, max}` on each server whose players the caller
 * may read: null when it is stopped, declares no query, gave no answer or its node did not answer;
 * absent where the caller may not read them. Figures younger than COUNTS_FRESH_MS are reused;
 * for the others, one call per node on the page, of figures the node holds in memory.
 */
export async function withPlayerCounts(db: Db, user: SessionUser, entries: ServerEntry[]): Promise<Array<ServerEntry & { players?: PlayerCounts }>> {
  const mayRead = await playersReadableBy(db, user, entries.map((entry) => entry.id));
  const readable = entries.filter((entry) => mayRead(entry.id));
  const now = Date.now();
  if (recentCounts.size > RECENT_MAX) for (const [id, { at }] of recentCounts) if (now - at >= COUNTS_FRESH_MS) recentCounts.delete(id);
  const stale = readable.filter((entry) => !(now - (recentCounts.get(entry.id)?.at ?? -Infinity) < COUNTS_FRESH_MS));
  await Promise.all(
    [...Map.groupBy(stale, (entry) => entry.node.id)].map(async ([nodeId, onNode]) => {
      const answer = await askNode<{ counts: Record<string, PlayerCounts> }>(db, nodeId, "playerCounts", `?ids=${onNode.map((entry) => entry.id).join(",")}`);
      for (const entry of onNode) {
        const figure = answer?.counts?.[entry.id];
        const counts = figure && isPlayerCount(figure.online) && isPlayerCount(figure.max) ? { online: figure.online, max: figure.max } : null;
        // A node that did not answer is asked again next time.
        if (answer) recentCounts.set(entry.id, { counts, at: now });
        else recentCounts.delete(entry.id);
      }
    }),
  );
  const readableIds = new Set(readable.map((entry) => entry.id));
  return entries.map((entry) => (readableIds.has(entry.id) ? { ...entry, players: recentCounts.get(entry.id)?.counts ?? null } : entry));
}

/**
 * Until when an answer of withPlayerCounts stays what it would give again (the database aside):
 * until the oldest of the counts it shows is no longer fresh; at once when one it shows was not
 * kept (its node did not answer, so it is asked again next time).
 */
export function countsFreshUntil(shown: ReadonlyArray<ServerEntry & { players?: PlayerCounts }>): number {
  let until = Infinity;
  for (const entry of shown) {
    if (!("players" in entry)) continue;
    const recent = recentCounts.get(entry.id);
    if (!recent) return -Infinity;
    until = Math.min(until, recent.at + COUNTS_FRESH_MS);
  }
  return until;
}
