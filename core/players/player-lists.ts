// Minecraft Java's four player lists and the console commands that change them, once: the list's
// name on the wire, its file in the server's folder, what identifies an entry (a player name or
// an IP), and the commands that add and remove. The answers the daemon waits for are vanilla's
// English texts (Paper, Purpur, Spigot, Fabric, Forge and NeoForge keep them), matched case-blind
// anywhere in a console line, so a log prefix such as "[12:00:00 INFO]: " does not matter.
import { KilnError } from "../errors";

export const PLAYER_LISTS = {
  whitelist: { file: "whitelist.json", key: "name", add: "whitelist add", remove: "whitelist remove", reason: false },
  ops: { file: "ops.json", key: "name", add: "op", remove: "deop", reason: false },
  bans: { file: "banned-players.json", key: "name", add: "ban", remove: "pardon", reason: true },
  "ip-bans": { file: "banned-ips.json", key: "ip", add: "ban-ip", remove: "pardon-ip", reason: true },
} as const;

export type PlayerList = keyof typeof PLAYER_LISTS;
export const PLAYER_LIST_NAMES = Object.keys(PLAYER_LISTS) as PlayerList[];

/** The list a path names, else ErrUnknownField naming the four. */
export function playerList(value: unknown): PlayerList {
  if (typeof value !== "string" || !Object.hasOwn(PLAYER_LISTS, value)) throw new KilnError("ErrUnknownField", { field: "list", accepted: PLAYER_LIST_NAMES });
  return value as PlayerList;
}

/** One entry as the API shows it: the fields of Minecraft's files that Kiln reads (others stay in the file). */
export interface PlayerEntry {
  name?: string;
  uuid?: string;
  ip?: string;
  reason?: string;
  created?: string;
  expires?: string;
  source?: string;
  level?: number;
}

export interface PlayerListAnswer {
  list: PlayerList;
  /** the page asked for (core/players/list-page), in the file's order */
  entries: PlayerEntry[];
  /** Only when `entries` is not the file's whole list (a page of it, or what a search matched): how many entries matched, and where this page starts among them. */
  total?: number;
  offset?: number;
  /** whitelist only: whether the server enforces it (server.properties white-list) */
  enabled?: boolean;
}

/** What a console command is and how its answer reads: done, nothing to do, or refused. */
export interface ConsoleCommand {
  command: string;
  done: RegExp;
  /** "Nothing changed…", "already…": the list already was as asked. */
  unchanged?: RegExp;
}

/** Answers that refuse any player command: the daemon reports the line as the reason. */
export const REFUSED_ANSWERS = /That player does not exist|No player was found|Invalid IP address|Unknown or incomplete command|Incorrect argument for command|Expected whitespace to end one argument/i;

/** `text` as a regular expression matching it literally. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const NOTHING = /Nothing changed|is already|already is|is not whitelisted|isn't banned|is not an operator|already turned (on|off)/i;

/** The command that adds or removes `value` (checked already) on `list`. */
export function listCommand(list: PlayerList, action: "add" | "remove", value: string, reason = ""): ConsoleCommand {
  const spec = PLAYER_LISTS[list];
  const who = escapeRegExp(value);
  const withReason = action === "add" && spec.reason && reason ? ` ${reason}` : "";
  const done: Record<PlayerList, Record<"add" | "remove", RegExp>> = {
    whitelist: { add: new RegExp(`Added ${who} to the whitelist`, "i"), remove: new RegExp(`Removed ${who} from the whitelist`, "i") },
    ops: { add: new RegExp(`Made ${who} a server operator`, "i"), remove: new RegExp(`Made ${who} no longer a server operator`, "i") },
    bans: { add: new RegExp(`Banned ${who}\\b`, "i"), remove: new RegExp(`Unbanned ${who}\\b`, "i") },
    "ip-bans": { add: new RegExp(`Banned IP ${who}\\b`, "i"), remove: new RegExp(`Unbanned IP ${who}\\b`, "i") },
  };
  return { command: `${spec[action]} ${value}${withReason}`, done: done[list][action], unchanged: NOTHING };
}

export function whitelistSwitchCommand(enabled: boolean): ConsoleCommand {
  const state = enabled ? "on" : "off";
  return { command: `whitelist ${state}`, done: new RegExp(`Whitelist is now turned ${state}`, "i"), unchanged: new RegExp(`Whitelist is already turned ${state}`, "i") };
}

export function kickCommand(name: string, reason: string): ConsoleCommand {
  return { command: reason ? `kick ${name} ${reason}` : `kick ${name}`, done: new RegExp(`Kicked ${escapeRegExp(name)}(?![A-Za-z0-9_.+-])`, "i") };
}

/** `list`: "There are 2 of a max of 20 players online: Alex, Steve" (1.13 and later). */
export const LIST_COMMAND: ConsoleCommand = { command: "list", done: /There are (\d+) (?:of a max of |\/)(\d+) players online:(.*)$/i };
