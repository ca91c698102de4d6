// The categories a search may be narrowed to, each source's own (a source's categories are its
// words for its projects, not another's), each with a locale key `mods.category.<name>`:
// - Modrinth's categories of mods and plugins (its /v2/tag/category, project types mod and
//   plugin, the "categories" header; loaders and resolutions are not categories here);
// - Hangar's project categories, by the names its API takes (`category=`; Hangar's Category enum,
//   without the hidden `undefined`).
// CurseForge's are numbered per class and known only by asking its API: the panel asks them
// (server/services/mods/curseforge.ts) and a search's answer lists them, named as CurseForge names
// them, so none is listed here. Spiget's search cannot be narrowed by one.
import type { BrowseSource } from "./types";

const MODRINTH_CATEGORIES = [
  "adventure",
  "cursed",
  "decoration",
  "economy",
  "equipment",
  "food",
  "game-mechanics",
  "library",
  "magic",
  "management",
  "minigame",
  "mobs",
  "optimization",
  "social",
  "storage",
  "technology",
  "transportation",
  "utility",
  "worldgen",
] as const;

const HANGAR_CATEGORIES = ["admin_tools", "chat", "dev_tools", "economy", "gameplay", "games", "protection", "role_playing", "world_management", "misc"] as const;

const CATEGORIES: Record<BrowseSource, readonly string[]> = { modrinth: MODRINTH_CATEGORIES, hangar: HANGAR_CATEGORIES, curseforge: [], spiget: [] };

/** The categories a search of `source` may be narrowed to (none: it takes none). */
export function categoriesOf(source: BrowseSource): readonly string[] {
  return CATEGORIES[source];
}

/** Every category name of every source, once: the locale keys `mods.category.<name>`. */
export const ALL_CATEGORIES: readonly string[] = [...new Set(Object.values(CATEGORIES).flat())];
