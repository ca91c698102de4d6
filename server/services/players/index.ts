// The panel's player management of one Minecraft Java server, for the API and the Players tab's
// plain forms: the caller must hold managePlayers (ErrNoPermission), the list must be one of the
// four and every name, reason and IP follow core/players before a node is asked; the node checks
// them again (it is also reached through the proxy) and refuses servers of other games.
import { KilnError } from "../../../core/errors";
import { kickName, minecraftName } from "../../../core/players/minecraft-name";
import type { OnlineList as OnlinePlayers } from "../../../core/players/online-list";
import { playerIp, playerReason } from "../../../core/players/player-input";
import { PLAYER_LISTS, playerList, type PlayerListAnswer } from "../../../core/players/player-lists";
import { playerListQuery, playerListSearchParams } from "../../../core/players/list-page";
import type { Db } from "../../../db/client";
import type { SessionUser } from "../sessions";
import { authorize } from "../servers";
import { ServerNodeCalls } from "../servers/server-node-calls";

export interface PlayerChange { changed: boolean }
export type { OnlinePlayers };

/** The value a list's entry is named by, checked: an IP for ip-bans, else a player name. */
function listValue(list: string, body: Record<string, unknown>): Record<string, string> {
  const which = playerList(list);
  if (PLAYER_LISTS[which].key === "ip") return { ip: playerIp(body.ip ?? body.name, "ip") };
  return { name: minecraftName(body.name) };
}

export class NodePlayers extends ServerNodeCalls {
  /** One page of the list: `query` as core/players/list-page reads it (offset, limit, search, names). */
  async list(list: string, query: Record<string, string | undefined> = {}): Promise<PlayerListAnswer> {
    const which = playerList(list);
    const asked = playerListQuery(query);
    return (await (await this.call("playerList", { list: which }, { query: playerListSearchParams(asked) })).json()) as PlayerListAnswer;
  }

  async add(list: string, body: Record<string, unknown>): Promise<PlayerChange> {
    const which = playerList(list);
    const reason = PLAYER_LISTS[which].reason ? playerReason(body.reason) : "";
    return (await (await this.send("addPlayer", { list: which }, { ...listValue(which, body), ...(reason ? { reason } : {}) })).json()) as PlayerChange;
  }

  async remove(list: string, body: Record<string, unknown>): Promise<PlayerChange> {
    const which = playerList(list);
    return (await (await this.send("removePlayer", { list: which }, listValue(which, body))).json()) as PlayerChange;
  }

  async setWhitelist(enabled: unknown): Promise<PlayerChange> {
    if (typeof enabled !== "boolean") throw new KilnError("ErrFieldNotBoolean", { field: "enabled" });
    return (await (await this.send("setWhitelist", {}, { enabled })).json()) as PlayerChange;
  }

  async kick(name: unknown, reason: unknown): Promise<void> {
    const why = playerReason(reason);
    await this.send("kickPlayer", { name: kickName(name) }, why ? { reason: why } : {});
  }

  async online(): Promise<OnlinePlayers> {
    return (await (await this.call("onlinePlayers")).json()) as OnlinePlayers;
  }
}

/** The server's player management for `user`, once they hold managePlayers on it. */
export async function playersFor(db: Db, user: SessionUser, id: string): Promise<NodePlayers> {
  await authorize(db, user, id, "managePlayers");
  return new NodePlayers(db, id);
}
