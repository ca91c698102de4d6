// Who plays on a server, as its node last asked the game: for GET /api/servers/{id}/players. The
// caller must hold viewServerConsole or viewServerStats (core/players/players-access); a stopped
// server is ErrServerOffline, a running one without figures ErrQueryUnavailable with the reason
// (no query declared, no answer, an answer too large or not readable).
import { KilnError } from "../../../core/errors";
import { READ_PLAYERS } from "../../../core/players/players-access";
import type { PlayerCounts, PlayersAnswer, PlayersState } from "../../../core/players/players-state";
import type { Db } from "../../../db/client";
import type { SessionUser } from "../sessions";
import { callServerNode, type ServerEntry } from "./index";
import { askNode } from "./live-values";
import { allows, authorize, serverAccess, type ServerAccess } from "./permissions";

export function mayReadPlayers(access: ServerAccess): boolean {
  return READ_PLAYERS.some((needs) => allows(access, needs));
}

/** For a list of servers: whose players `user` may read (the server-rendered list's counts). */
export function playersReadableBy(db: Db, user: SessionUser): (id: string) => boolean {
  return (id) => mayReadPlayers(serverAccess(db, user, id));
}

export async function serverPlayers(db: Db, user: SessionUser, id: string): Promise<PlayersAnswer> {
  const access = authorize(db, user, id, "view");
  if (!mayReadPlayers(access)) throw new KilnError("ErrNoPermission", { permission: READ_PLAYERS.join(" or ") });
  const { players } = (await (await callServerNode(db, id, "players")).json()) as { players: PlayersState | null };
  if (!players) throw new KilnError("ErrServerOffline", { id });
  if ("error" in players) throw new KilnError("ErrQueryUnavailable", { reason: players.reason });
  return players;
}

/**
 * A page of GET /api/servers with `players: {online, max}` on each server whose players the caller
 * may read: null when it is stopped, declares no query, gave no answer or its node did not answer;
 * absent where the caller may not read them. One call per node on the page, of figures the node
 * holds in memory.
 */
export async function withPlayerCounts(db: Db, user: SessionUser, entries: ServerEntry[]): Promise<Array<ServerEntry & { players?: PlayerCounts }>> {
  const readable = entries.filter((entry) => mayReadPlayers(serverAccess(db, user, entry.id)));
  const byNode = Map.groupBy(readable, (entry) => entry.node.id);
  const counts = new Map<string, PlayerCounts>(readable.map((entry) => [entry.id, null]));
  await Promise.all(
    [...byNode].map(async ([nodeId, onNode]) => {
      const answer = await askNode<{ counts: Record<string, PlayerCounts> }>(db, nodeId, "playerCounts", `?ids=${onNode.map((entry) => entry.id).join(",")}`);
      for (const entry of onNode) {
        const figure = answer?.counts?.[entry.id];
        if (figure && Number.isInteger(figure.online) && Number.isInteger(figure.max)) counts.set(entry.id, { online: figure.online, max: figure.max });
      }
    }),
  );
  return entries.map((entry) => (counts.has(entry.id) ? { ...entry, players: counts.get(entry.id)! } : entry));
}
