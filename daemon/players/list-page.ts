// One page of a list file's entries, as the node answers it (core/players/list-page): the entries
// a search or a set of names picks, in the file's order, then `limit` of them from `offset`. The
// answer says how many matched and where the page starts whenever it is not the whole list, so a
// caller pages through a list of any length a page at a time.
import type { PlayerListQuery } from "../../core/players/list-page";
import type { PlayerEntry, PlayerList } from "../../core/players/player-lists";
import { shownEntry } from "./list-edit";

type Raw = Record<string, unknown>;

const lower = (value: unknown) => (typeof value === "string" ? value.toLowerCase() : "");

/** Whether the entry is one the question picks: its name among `names`, and `search` in its name, UUID or IP. */
function picker(list: PlayerList, { search, names }: PlayerListQuery): (entry: Raw) => boolean {
  const wanted = names && new Set(names.map((name) => name.toLowerCase()));
  const text = search.toLowerCase();
  const searched = (entry: Raw) => (list === "ip-bans" ? [entry.ip] : [entry.name, entry.uuid]).some((value) => lower(value).includes(text));
  return (entry) => (!wanted || wanted.has(lower(entry.name))) && (!text || searched(entry));
}

export function listPage(raw: readonly Raw[], list: PlayerList, query: PlayerListQuery): { entries: PlayerEntry[]; total?: number; offset?: number } {
  const matched = query.search || query.names ? raw.filter(picker(list, query)) : raw;
  const entries = matched.slice(query.offset, query.offset + query.limit).map(shownEntry);
  return entries.length === raw.length ? { entries } : { entries, total: matched.length, offset: query.offset };
}
