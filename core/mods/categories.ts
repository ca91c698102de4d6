// The categories a search may be narrowed to: Modrinth's categories of mods and plugins (its
// /v2/tag/category, project types mod and plugin, the "categories" header; loaders and resolutions
// are not categories here). Each has a locale key `mods.category.<slug>`.
export const ADDON_CATEGORIES = [
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

export type AddonCategory = (typeof ADDON_CATEGORIES)[number];

export function isAddonCategory(value: string): value is AddonCategory {
  return (ADDON_CATEGORIES as readonly string[]).includes(value);
}
