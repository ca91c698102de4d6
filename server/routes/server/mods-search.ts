// The Mods tab's searches as a page without script sends them (the panes' GET forms and pager
// links: q, sort, category, source, page for add-ons; packQ, packSort, packPage for modpacks),
// asked through the services (which check every value) and handed to the panes as they showed them.
import { sortOf } from "../../services/mods/search-terms";
import { sourceOf } from "../../services/mods/sources";
import type { ServerMods } from "../../services/mods";
import type { ServerModpacks } from "../../services/mods/packs";
import type { InitialSearch } from "../../../islands/mods/BrowsePane";

const pageNumber = (page: string | undefined) => Math.max(1, Number.parseInt(page ?? "1", 10) || 1);

export async function modsSearch(mods: ServerMods, query: Record<string, string>): Promise<InitialSearch> {
  const asked = { q: query.q ?? "", sort: sortOf(query.sort), category: query.category ?? "", source: sourceOf(query.source), page: pageNumber(query.page) };
  const answer = await mods.search({ q: asked.q, sort: asked.sort, category: asked.category || undefined, source: asked.source, page: String(asked.page) });
  return { ...asked, answer };
}

export async function packsSearch(packs: ServerModpacks, query: Record<string, string>): Promise<InitialSearch> {
  const asked = { q: query.packQ ?? "", sort: sortOf(query.packSort), category: "", source: "modrinth" as const, page: pageNumber(query.packPage) };
  const answer = await packs.search({ q: asked.q, sort: asked.sort, page: String(asked.page) });
  return { ...asked, answer };
}
