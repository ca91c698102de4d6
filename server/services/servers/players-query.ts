// Who plays on a server, as its node last asked the game: for GET /api/servers/{id}/players. The
// caller must hold viewServerConsole or viewServerStats (core/players/players-access); a stopped
// server is ErrServerOffline, a running one without figures ErrQueryUnavailable with the reason
// (no query declared, no answer, an answer too large or not readable).
import { KilnError } from "../../../core/errors";
import { READ_PLAYERS } from "../../../core/players/players-access";
import type { PlayersAnswer, PlayersState } from "../../../core/players/players-state";
import type { Db } from "../../../db/client";
import type { SessionUser } from "../sessions";
import { callServerNode } from "./index";
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
