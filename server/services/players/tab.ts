// What the Players tab asks a node for: a page of each list (TAB_PAGE_SIZE entries, the page and
// search the address names for that list), and who is online with which of them are operators
// (asked of ops.json by their names, so a long operator list is never fetched whole). The node
// answers pages only (core/players/list-page), so the tab costs the same for a list of 10 entries
// as for one of 100,000.
import { KilnError } from "../../../core/errors";
import { PLAYER_LIST_PAGE, tabParams } from "../../../core/players/list-page";
import type { PlayerList, PlayerListAnswer } from "../../../core/players/player-lists";
import type { NodePlayers, OnlinePlayers } from "./index";

/** Rows per list on the tab: four lists of this many rows with their forms keep the page light. */
export const TAB_PAGE_SIZE = 25;

export interface ListWanted { page: number; search: string }
export interface ListView extends ListWanted { answer: PlayerListAnswer; pages: number }
export type OnlineView = Omit<OnlinePlayers, "players"> & { players: { name: string; op: boolean }[] };

/**
 * What the address asks of `list`, read leniently since a person may have edited it: a page that
 * is not a whole number is the first, a search past its length is cut.
 */
export function listWanted(query: Record<string, string | undefined>, list: PlayerList): ListWanted {
  const names = tabParams(list);
  const raw = query[names.page] ?? "";
  const page = /^\d{1,9}$/.test(raw) ? Math.max(1, Number(raw)) : 1;
  return { page, search: (query[names.search] ?? "").trim().slice(0, PLAYER_LIST_PAGE.maxSearch) };
}

/** The page of `list` asked for; past the last page, the last one. */
export async function listView(players: NodePlayers, list: PlayerList, { page, search }: ListWanted): Promise<ListView> {
  const ask = (at: number) => players.list(list, { offset: String((at - 1) * TAB_PAGE_SIZE), limit: String(TAB_PAGE_SIZE), search: search || undefined });
  let answer = await ask(page);
  const pages = Math.max(1, Math.ceil((answer.total ?? answer.entries.length) / TAB_PAGE_SIZE));
  if (page > pages) answer = await ask(pages);
  return { answer, page: Math.min(page, pages), pages, search };
}

/** Who is online, each marked an operator or not; a broken ops.json marks nobody (its card says why). */
export async function onlineView(players: NodePlayers): Promise<OnlineView> {
  const online = await players.online();
  const names = online.players.slice(0, PLAYER_LIST_PAGE.maxNames).map((player) => player.name);
  const ops = names.length === 0 ? [] : await players.list("ops", { names: names.join(","), limit: String(PLAYER_LIST_PAGE.maxNames) }).then(
    (answer) => answer.entries,
    (error: unknown) => {
      if (error instanceof KilnError) return [];
      throw error;
    },
  );
  const opNames = new Set(ops.map((entry) => entry.name?.toLowerCase()));
  return { ...online, players: names.map((name) => ({ name, op: opNames.has(name.toLowerCase()) })) };
}
