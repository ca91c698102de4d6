// Which part of a player list a caller asks for: a page of it (offset, limit), narrowed to the
// entries whose name, UUID or IP holds a text (search) or to entries of some names (names, the
// Players tab's question "which of the online players are operators?"). The node answers at most
// a page, never the whole file, so no list a server's process wrote costs more than a page to
// show; the panel and the node both check the question with these rules.
import { KilnError } from "../errors";
import type { PlayerList } from "./player-lists";

export const PLAYER_LIST_PAGE = {
  /** what a caller gets without asking for a limit */
  defaultLimit: 200,
  /** the most one answer holds */
  maxLimit: 1000,
  /** a search is part of a name, a UUID or an IP: an IPv6 address is the longest, 45 characters */
  maxSearch: 45,
  /** the most names one question asks about (as many as the node keeps of the online list) */
  maxNames: 200,
} as const;

export interface PlayerListQuery {
  offset: number;
  limit: number;
  /** "" for none; compared case-blind */
  search: string;
  /** null for any; else only entries of these names (case-blind) */
  names: string[] | null;
}

type Query = Record<string, string | undefined>;

function whole(raw: string | undefined, field: string, absent: number, min: number, max: number): number {
  if (raw === undefined || raw === "") return absent;
  if (!/^\d{1,16}$/.test(raw)) throw new KilnError("ErrFieldNotInteger", { field });
  const value = Number(raw);
  if (value < min || value > max) throw new KilnError("ErrFieldNotBetween", { field, min, max });
  return value;
}

/** The question in `query` (offset, limit, search, names=a,b…), else the catalogue error naming the field. */
export function playerListQuery(query: Query): PlayerListQuery {
  const offset = whole(query.offset, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = whole(query.limit, "limit", PLAYER_LIST_PAGE.defaultLimit, 1, PLAYER_LIST_PAGE.maxLimit);
  const search = (query.search ?? "").trim();
  if (search.length > PLAYER_LIST_PAGE.maxSearch) throw new KilnError("ErrFieldTooLarge", { field: "search", max: PLAYER_LIST_PAGE.maxSearch });
  const names = query.names === undefined ? null : query.names.split(",").filter((name) => name !== "");
  if (names && names.length > PLAYER_LIST_PAGE.maxNames) throw new KilnError("ErrFieldTooLarge", { field: "names", max: PLAYER_LIST_PAGE.maxNames });
  return { offset, limit, search, names };
}

/** The question as the node's address carries it ("?offset=…"). */
export function playerListSearchParams(query: PlayerListQuery): string {
  const params = new URLSearchParams({ offset: String(query.offset), limit: String(query.limit) });
  if (query.search) params.set("search", query.search);
  if (query.names) params.set("names", query.names.join(","));
  return `?${params.toString()}`;
}

/** The Players tab's address names for one list's page and search (each list keeps its own). */
export const tabParams = (list: PlayerList) => ({ page: `${list}-page`, search: `${list}-search` });
