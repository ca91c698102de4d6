// Where the panel finds add-ons, as the administrator sets them (the setting panel.mods.sources, a
// JSON text, written through PUT /api/settings {modSources} or the setting's own key): each source
// on or off, at a base URL (a mirror, or the tests' local stand-ins). Unset parts keep the
// defaults below. Modrinth, CurseForge (with the administrator's API key, the secret setting
// panel.mods.curseforgeKey), Hangar and Spiget are the browser's sources; PaperMC, Purpur,
// Fabric, Quilt, NeoForge and Forge list their loaders' own versions for a loader switch (./loader-versions). PaperMC, Fabric and NeoForge list their loaders'
// own versions for a loader switch (./loader-versions).
import { KilnError } from "../../../core/errors";
import { BROWSE_SOURCES, MOD_SOURCES, PACK_SOURCES, PLATFORM_SOURCES, type BrowseSource, type ModSource, type PackSource, type PlatformSource } from "../../../core/mods/types";
import { z } from "../../../core/zod";
import type { Db } from "../../../db";
import { getSetting, SETTING_KEYS } from "../settings";
import { CurseForgeClient } from "./curseforge";
import { HangarClient } from "./hangar";
import { SpigetClient } from "./spiget";
import { ModrinthClient } from "./modrinth";


export interface SourceSetting {
  enabled: boolean;
  url: string;
}

/** Every source the setting holds: the add-ons' and the platforms' own. */
type SettingSource = ModSource | PlatformSource;
const SETTING_SOURCES = [...MOD_SOURCES, ...PLATFORM_SOURCES] as const;

export const DEFAULT_MOD_SOURCES: Record<SettingSource, SourceSetting> = {
  modrinth: { enabled: true, url: "https://api.modrinth.com/v2" },
  // CurseForge's paths carry their version (/v1/mods/…): its base is the API's origin, as the node's.
  curseforge: { enabled: true, url: "https://api.curseforge.com" },
  hangar: { enabled: true, url: "https://hangar.papermc.io/api/v1" },
  spiget: { enabled: true, url: "https://api.spiget.org/v2" },
  papermc: { enabled: true, url: "https://fill.papermc.io/v3" },
  // Purpur's download API, as the Purpur template's downloadBase: its builds are under /v2/purpur.
  purpur: { enabled: true, url: "https://api.purpurmc.org" },
  fabric: { enabled: true, url: "https://meta.fabricmc.net/v2" },
  quilt: { enabled: true, url: "https://meta.quiltmc.org/v3" },
  // NeoForge's Maven repository, as the node's sources.neoforge: its releases are under /releases.
  neoforge: { enabled: true, url: "https://maven.neoforged.net" },
  // Forge's Maven repository, as the node's sources.forge: its builds are under /net/minecraftforge/forge.
  forge: { enabled: true, url: "https://maven.minecraftforge.net" },
};

const sourceSchema = z.strictObject({ enabled: z.optional(z.boolean()), url: z.optional(z.string().check(z.maxLength(512))) });
const settingSchema = z.partial(z.strictObject(Object.fromEntries(SETTING_SOURCES.map((s) => [s, sourceSchema])) as Record<SettingSource, typeof sourceSchema>));

/** The setting's rule: JSON of {source: {enabled?, url?}}, each URL http(s) without credentials; stored normalised. */
export function modSourcesRule(value: string): string {
  if (value === "") return "";
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new KilnError("ErrInvalidJson");
  }
  const parsed = z.safeParse(settingSchema, json);
  if (!parsed.success) throw new KilnError("ErrFieldNotBetween", { field: `modSources.${parsed.error.issues[0]?.path.join(".") ?? ""}` });
  for (const [source, setting] of Object.entries(parsed.data)) {
    if (setting?.url === undefined) continue;
    let url: URL;
    try {
      url = new URL(setting.url);
    } catch {
      throw new KilnError("ErrFieldIsInvalidHost", { field: `modSources.${source}.url` });
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password) throw new KilnError("ErrFieldIsInvalidHost", { field: `modSources.${source}.url` });
    setting.url = setting.url.replace(/\/+$/, "");
  }
  return JSON.stringify(parsed.data);
}

export async function modSources(db: Db): Promise<Record<SettingSource, SourceSetting>> {
  const stored = await getSetting(db, SETTING_KEYS.modSources);
  const set = stored ? (JSON.parse(stored) as Partial<Record<SettingSource, Partial<SourceSetting>>>) : {};
  return Object.fromEntries(SETTING_SOURCES.map((s) => [s, { ...DEFAULT_MOD_SOURCES[s], ...set[s] }])) as Record<SettingSource, SourceSetting>;
}

/** The base URL of an enabled source; ErrModSourceUnavailable when the administrator turned it off. */
export async function sourceUrl(db: Db, source: SettingSource): Promise<string> {
  const setting = (await modSources(db))[source];
  if (!setting.enabled) throw new KilnError("ErrModSourceUnavailable", { source, reason: "turned off by the administrator" });
  return setting.url;
}

export type SourceClient = ModrinthClient | CurseForgeClient | HangarClient | SpigetClient;

/** The client of an enabled source (ErrModSourceUnavailable for one turned off, or CurseForge without a key). */
export async function sourceClient(db: Db, source: ModSource, timeoutMs?: number): Promise<SourceClient> {
  const url = await sourceUrl(db, source);
  if (source === "modrinth") return new ModrinthClient(url, timeoutMs);
  if (source === "hangar") return new HangarClient(url, timeoutMs);
  if (source === "spiget") return new SpigetClient(url, timeoutMs);
  const key = await getSetting(db, SETTING_KEYS.curseforgeKey);
  if (!key) throw new KilnError("ErrModSourceUnavailable", { source: "CurseForge", reason: "no API key is set (Settings)" });
  return new CurseForgeClient(url, key, timeoutMs);
}

/** The `source` of a request among `sources`: the first when none is named; another is ErrFieldNotBetween. */
export function sourceOf<S extends BrowseSource>(value: unknown, sources: readonly S[] = BROWSE_SOURCES as readonly BrowseSource[] as readonly S[]): S {
  if (value === undefined || value === "") return sources[0]!;
  const found = sources.find((s) => s === value);
  if (!found) throw new KilnError("ErrFieldNotBetween", { field: "source" });
  return found;
}

/** The `source` of a modpack search or address: one that has modpacks. */
export const packSourceOf = (value: unknown): PackSource => sourceOf(value, PACK_SOURCES);
