// Player management for a Minecraft Java server (its four lists, the whitelist switch, kicks and
// who is online). Every name, reason and IP is checked by core/players before anything else.
// While the server runs, each change is its console command, confirmed from the console's answer
// (./console-command); while it is stopped, the list files and server.properties are edited
// through the jail (./json-file, ./list-edit). Lists are read from the files either way: the game
// writes them after every change.
import { parse as parseProperties } from "dot-properties";
import { KilnError } from "../../core/errors";
import { assertManagesPlayers } from "../../core/players/minecraft-java";
import { dashedUuid, isMinecraftUuid, kickName, minecraftName } from "../../core/players/minecraft-name";
import { onlineList, type OnlineList } from "../../core/players/online-list";
import { playerIp, playerReason } from "../../core/players/player-input";
import { playerListQuery } from "../../core/players/list-page";
import { LIST_COMMAND, PLAYER_LISTS, kickCommand, listCommand, whitelistSwitchCommand, type PlayerList, type PlayerListAnswer } from "../../core/players/player-lists";
import { rewriteProperties } from "../processors/config-files/properties";
import type { ServerManager } from "../servers/manager";
import type { Server } from "../servers/server";
import { ANSWER_TIMEOUT_MS, runConsoleCommand } from "./console-command";
import { MAX_PLAYER_LIST_ENTRIES, readJsonList, readSmallFile, writeJsonList, writeText } from "./json-file";
import { addEntry, offlineUuid, removeEntry, type Profile } from "./list-edit";
import { listPage } from "./list-page";

const PROPERTIES = "server.properties";
const USER_CACHE = "usercache.json";

export interface PlayerChange { changed: boolean }

export class PlayerManagement {
  constructor(
    private readonly manager: ServerManager,
    private readonly timeoutMs = ANSWER_TIMEOUT_MS,
  ) {}

  /** One page of the list (core/players/list-page): never the whole file, whatever its size. */
  list(id: string, list: PlayerList, query: Record<string, string | undefined> = {}): PlayerListAnswer {
    const asked = playerListQuery(query);
    const server = this.server(id);
    const page = listPage(readJsonList(server.jail, PLAYER_LISTS[list].file), list, asked);
    return list === "whitelist" ? { list, ...page, enabled: this.properties(server)["white-list"] === "true" } : { list, ...page };
  }

  /** Adds `value` (a name or UUID; an IP for ip-bans) to the list, with a reason for bans. */
  async add(id: string, list: PlayerList, value: unknown, reason?: unknown): Promise<PlayerChange> {
    const checked = list === "ip-bans" ? playerIp(value) : minecraftName(value);
    const why = PLAYER_LISTS[list].reason ? playerReason(reason) : "";
    const server = this.server(id);
    if (server.isRunning()) return this.command(server, listCommand(list, "add", checked, why));
    const file = PLAYER_LISTS[list].file;
    const who = list === "ip-bans" ? { ip: checked } : this.profile(server, checked);
    const { entries, changed } = addEntry(readJsonList(server.jail, file), list, who, why, new Date());
    // A file Kiln writes is one it can read again: an entry past the cap would lock the list.
    if (entries.length > MAX_PLAYER_LIST_ENTRIES) throw new KilnError("ErrPlayerListTooLong", { file, max: MAX_PLAYER_LIST_ENTRIES });
    if (changed) await writeJsonList(server.jail, file, entries);
    return { changed };
  }

  async remove(id: string, list: PlayerList, value: unknown): Promise<PlayerChange> {
    const checked = list === "ip-bans" ? playerIp(value) : minecraftName(value);
    const server = this.server(id);
    if (server.isRunning()) return this.command(server, listCommand(list, "remove", checked));
    const file = PLAYER_LISTS[list].file;
    const { entries, changed } = removeEntry(readJsonList(server.jail, file), list, checked);
    if (changed) await writeJsonList(server.jail, file, entries);
    return { changed };
  }

  /** The whitelist on or off: `whitelist on|off`, or server.properties' white-list while stopped. */
  async setWhitelist(id: string, enabled: unknown): Promise<PlayerChange> {
    if (typeof enabled !== "boolean") throw new KilnError("ErrFieldNotBoolean", { field: "enabled" });
    const server = this.server(id);
    if (server.isRunning()) return this.command(server, whitelistSwitchCommand(enabled));
    const text = readSmallFile(server.jail, PROPERTIES) ?? "";
    const next = rewriteProperties(text, [{ match: "white-list", value: String(enabled) }]);
    if (next !== text) await writeText(server.jail, PROPERTIES, next);
    return { changed: next !== text };
  }

  /** Kicks an online player with an optional reason; only a running server has players to kick. */
  async kick(id: string, name: unknown, reason?: unknown): Promise<void> {
    const checked = kickName(name);
    const why = playerReason(reason);
    const server = this.server(id);
    if (!server.isRunning()) throw new KilnError("ErrServerOffline");
    await this.command(server, kickCommand(checked, why));
  }

  /** Who is online, from the console's `list` (the query's answer may lag by its interval). */
  async online(id: string): Promise<OnlineList> {
    const server = this.server(id);
    if (!server.isRunning()) throw new KilnError("ErrServerOffline");
    const { match } = await runConsoleCommand(server, LIST_COMMAND, this.timeoutMs);
    // Every name as the game wrote it, or the line whole when its names cannot be told apart
    // (core/players/online-list); which action each name takes is the tab's to decide.
    return onlineList(Number(match[1]), Number(match[2]), match[3] ?? "");
  }

  /** The server, once its template says it is Minecraft Java. */
  private server(id: string): Server {
    const server = this.manager.get(id);
    assertManagesPlayers(server.definition.type);
    return server;
  }

  private async command(server: Server, command: Parameters<typeof runConsoleCommand>[1]): Promise<PlayerChange> {
    const { changed } = await runConsoleCommand(server, command, this.timeoutMs);
    return { changed };
  }

  private properties(server: Server): Record<string, string> {
    const text = readSmallFile(server.jail, PROPERTIES);
    return text === null ? {} : (parseProperties(text) as Record<string, string>);
  }

  /**
   * The name and UUID the files need for a player while the server cannot look one up: from
   * usercache.json (everyone who ever joined), else the offline UUID when the server runs in
   * offline mode. An online-mode server's UUID for a stranger is Mojang's to give: refused, so
   * the file never holds a wrong one (the running server's own command looks it up).
   */
  private profile(server: Server, value: string): Profile {
    const uuid = isMinecraftUuid(value) ? dashedUuid(value) : null;
    const cached = readJsonList(server.jail, USER_CACHE).find((entry) =>
      uuid ? typeof entry.uuid === "string" && entry.uuid.toLowerCase() === uuid : typeof entry.name === "string" && entry.name.toLowerCase() === value.toLowerCase(),
    );
    if (cached && typeof cached.name === "string" && typeof cached.uuid === "string") return { name: cached.name, uuid: cached.uuid };
    if (!uuid && this.properties(server)["online-mode"] === "false") return { name: value, uuid: offlineUuid(value) };
    throw new KilnError("ErrPlayerUnknown", { name: value });
  }
}
