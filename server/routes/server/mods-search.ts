// The Mods tab's searches as a page without script sends them (the panes' GET forms and pager
// links, named by core/mods/types SEARCH_PARAMS),
// asked through the services (which check every value) and handed to the panes as they showed them.
import { sortOf } from "../../services/mods/search-terms";
import { packSourceOf, sourceOf } from "../../services/mods/sources";
import type { ServerMods } from "../../services/mods";
import type { ServerModpacks } from "../../services/mods/packs";
import type { InitialSearch } from "../../../islands/mods/BrowsePane";
import { SEARCH_PARAMS } from "../../../core/mods/types";

const pageNumber = (page: string | undefined) => Math.max(1, Number.parseInt(page ?? "1", 10) || 1);

const ADDONS = SEARCH_PARAMS.addons;
const PACKS = SEARCH_PARAMS.packs;

/** Whether the address carries a search of that pane. */
export const asksAddons = (query: Record<string, string>) => query[ADDONS.q] !== undefined;
export const asksPacks = (query: Record<string, string>) => query[PACKS.q] !== undefined;

export async function modsSearch(mods: ServerMods, query: Record<string, string>): Promise<InitialSearch> {
  const asked = { q: query[ADDONS.q] ?? "", sort: sortOf(query[ADDONS.sort]), category: query[ADDONS.category] ?? "", source: sourceOf(query[ADDONS.source]), page: pageNumber(query[ADDONS.page]) };
  const answer = await mods.search({ q: asked.q, sort: asked.sort, category: asked.category || undefined, source: asked.source, page: String(asked.page) });
  return { ...asked, answer };
}

export async function packsSearch(packs: ServerModpacks, query: Record<string, string>): Promise<InitialSearch> {
  const asked = { q: query[PACKS.q] ?? "", sort: sortOf(query[PACKS.sort]), category: "", source: packSourceOf(query[PACKS.source]), page: pageNumber(query[PACKS.page]) };
  const answer = await packs.search({ q: asked.q, sort: asked.sort, page: String(asked.page), source: asked.source });
  return { ...asked, answer };
}
