// The wire shapes of mods and plugins, one place for the panel, the node and the browser: what a
// server is (its platform), what is installed, a plan of changes and a change's progress.

/** What runs a Minecraft Java server; each decides whether add-ons are mods or plugins. */
export const PLATFORMS = ["vanilla", "paper", "purpur", "spigot", "fabric", "quilt", "forge", "neoforge"] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Plugins platforms load from plugins/; mod loaders from mods/; vanilla loads neither. */
export const PLUGIN_PLATFORMS: readonly Platform[] = ["paper", "purpur", "spigot"];
export const MOD_PLATFORMS: readonly Platform[] = ["fabric", "quilt", "forge", "neoforge"];

export type AddonKind = "mods" | "plugins";

export interface PlatformInfo {
  /** null: no Minecraft Java server recognised in the folder. */
  platform: Platform | null;
  /** The Minecraft version ("1.20.1"), when found. */
  gameVersion: string | null;
  /** The loader's own version (Fabric loader 0.15.11, Forge 47.2.0), when found. */
  loaderVersion?: string;
  /** The folder add-ons go in; null for vanilla or an unrecognised folder. */
  folder: AddonKind | null;
  /** How it was found: "template" when the template states it, else the file it was read from. */
  detectedFrom: string;
}

export function addonFolder(platform: Platform | null): AddonKind | null {
  if (!platform) return null;
  if (PLUGIN_PLATFORMS.includes(platform)) return "plugins";
  if (MOD_PLATFORMS.includes(platform)) return "mods";
  return null;
}

/** Whether a server on `from` may switch to `to` (another template): another platform whose add-ons go in the same folder, or any from vanilla, which has none. */
export function switchable(from: Platform, to: Platform): boolean {
  return from !== to && (addonFolder(from) === null || addonFolder(from) === addonFolder(to));
}

/** One file in mods/ or plugins/, as the node sees it. */
export interface InstalledFile {
  fileName: string;
  size: number;
  /** hex */
  sha1: string;
  /** hex */
  sha512: string;
  /** hex: Hangar names files by it */
  sha256: string;
  /** CurseForge's fingerprint (core/mods/fingerprint). */
  fingerprint: number;
  /** false: renamed to `<name>.disabled`, which the game does not load. `fileName` is then the name without `.disabled`. */
  enabled: boolean;
  /** Where the node got these bytes when it placed them (a change the panel planned), if it did. */
  origin?: AddonOrigin;
}

/** The source, project and version a placed file was planned from. */
export interface AddonOrigin {
  source: ModSource;
  projectId: string;
  versionId: string;
}

export const MOD_SOURCES = ["modrinth", "curseforge", "hangar", "spiget"] as const;
export type ModSource = (typeof MOD_SOURCES)[number];
/** The sources the browser searches and installs add-ons from, the first the default. */
export const BROWSE_SOURCES = ["modrinth", "curseforge", "hangar", "spiget"] as const satisfies readonly ModSource[];
export type BrowseSource = (typeof BROWSE_SOURCES)[number];
/** The sources that have modpacks (Find a modpack, a new server from one). */
export const PACK_SOURCES = ["modrinth", "curseforge"] as const satisfies readonly BrowseSource[];
export type PackSource = (typeof PACK_SOURCES)[number];
/** Where a platform's own versions are listed (PaperMC's and Purpur's builds, Fabric's and Quilt's loaders, NeoForge's and Forge's Maven), for a loader switch; set beside the mod sources. */
export const PLATFORM_SOURCES = ["papermc", "purpur", "fabric", "quilt", "neoforge", "forge"] as const;
export type PlatformSource = (typeof PLATFORM_SOURCES)[number];

/** The query-string names of the Mods tab's two searches (the panes share the page's address), as the panes send them and the page reads them. */
export const SEARCH_PARAMS = {
  addons: { q: "q", sort: "sort", category: "category", source: "source", page: "page" },
  packs: { q: "packQ", sort: "packSort", category: "", source: "packSource", page: "packPage" },
} as const;

/**
 * The loader names (Modrinth's, which Hangar and CurseForge map onto) whose files a platform can
 * load, best first: Purpur runs Paper's plugins and Paper runs Spigot's and Bukkit's; Quilt loads
 * most Fabric mods.
 */
export const LOADERS_OF: Record<Platform, readonly string[]> = {
  vanilla: [],
  paper: ["paper", "spigot", "bukkit"],
  purpur: ["purpur", "paper", "spigot", "bukkit"],
  spigot: ["spigot", "bukkit"],
  fabric: ["fabric"],
  quilt: ["quilt", "fabric"],
  forge: ["forge"],
  neoforge: ["neoforge"],
};

/** Spiget's file host, where its downloads redirect: the panel pins a file from it, and it is the node's default sources.spigetCdn. */
export const SPIGET_FILE_HOST = "https://cdn.spiget.org";

/** The loader a plugins-only source's files run on: Hangar's are Paper's plugins, Spiget's SpigotMC's. */
const PLUGIN_SOURCE_LOADER: Partial<Record<BrowseSource, string>> = { hangar: "paper", spiget: "spigot" };

/**
 * The browse sources for a platform's add-ons: a plugins-only source is offered only where its
 * loader's plugins load (Hangar on Paper and Purpur; Spiget there and on Spigot).
 */
export function browseSourcesFor(platform: Platform | null): readonly BrowseSource[] {
  const loaders = platform ? LOADERS_OF[platform] : [];
  return BROWSE_SOURCES.filter((s) => PLUGIN_SOURCE_LOADER[s] === undefined || loaders.includes(PLUGIN_SOURCE_LOADER[s]));
}

/** The loaders a Bukkit/Spigot plugin (CurseForge's class 5, Spiget's resources) runs on: every platform whose loaders take Spigot's plugins. */
export const BUKKIT_PLUGIN_LOADERS: readonly string[] = [...new Set(PLATFORMS.flatMap((p) => (LOADERS_OF[p].includes("spigot") ? LOADERS_OF[p] : [])))];

/** One file a plan downloads: what the node is asked for, and what the page shows. */
export interface PlanFile {
  source: ModSource;
  projectId: string;
  versionId: string;
  title: string;
  versionNumber: string;
  fileName: string;
  size: number;
  url: string;
  sha512?: string;
  sha256?: string;
  sha1?: string;
  /** For an update: the installed file it replaces. */
  replaces?: string;
  /** For a dependency: the project that needs it. */
  requiredBy?: string;
}

export interface PlanWarning {
  /** incompatible: a project installed or planned says it does not work with another; wrongLoader / wrongGameVersion: a chosen version is not for this server; missingDependency: a required dependency has no version for this server; externalDependency: a required dependency the source does not host (the user brings it). */
  code: "incompatible" | "wrongLoader" | "wrongGameVersion" | "missingDependency" | "externalDependency";
  /** The project the warning is about, and the other one where there are two. */
  title: string;
  other?: string;
}

export interface Plan {
  planId: string;
  folder: AddonKind;
  add: PlanFile[];
  update: PlanFile[];
  /** Installed files it removes. */
  remove: { fileName: string; title?: string; size: number }[];
  warnings: PlanWarning[];
  /** An incompatible pair would be installed: the plan cannot be applied. */
  blocked: boolean;
}

/** The versions a server's platform can switch to (GET /api/servers/{id}/mods/versions). */
export interface VersionsAnswer {
  platform: Platform | null;
  gameVersion: string | null;
  loaderVersion?: string;
  /** The template variable that sets the Minecraft version (its addons statement names it); null: the server cannot switch here. */
  variable: string | null;
  /** Minecraft versions it can switch to, newest first: the variable's options, else the releases the source lists. */
  versions: string[];
  /** The loader's own version (a Paper build, a Fabric loader), when the template names the variable that sets it; null otherwise. */
  loader: LoaderVersions | null;
  /** The CurseForge modpack the server's template installs (its curseforge step), and its files to switch to; null for another template. */
  pack: PackFiles | null;
  /** Other platforms the server can switch to, each a template whose add-ons go in the same folder and that takes its Minecraft version (Paper ↔ Purpur, Fabric ↔ Quilt). */
  platforms: PlatformChoice[];
}

/** A platform a server can switch to: the template that installs it. */
export interface PlatformChoice {
  template: string;
  platform: Platform;
  /** The template's display name. */
  display: string;
}

export interface PackFiles {
  /** The template variable holding the pack's file id. */
  variable: string;
  projectId: string;
  /** The pack's name on CurseForge (its id when CurseForge did not answer). */
  title: string;
  /** The file id the variable holds now (empty: the newest release at each install). */
  value: string;
  /** Its files that have a server pack, newest first: their ids and names. */
  files: { id: string; name: string }[];
  /** CurseForge did not answer (or has no key): none offered for now. */
  unavailable?: true;
}

export interface LoaderVersions {
  variable: string;
  /** The variable's value now ("latest", "496", "0.15.11"). */
  value: string;
  /** Values it can switch to, newest first: the variable's options, else what the platform lists for the Minecraft version ("latest" first when the template's default is it). */
  versions: string[];
  /** The platform's list did not answer: none offered for now. */
  unavailable?: true;
}

/** What a switch changes: the Minecraft version, the loader's own version for the same Minecraft, a CurseForge modpack's file, or the platform itself (another template). */
export type SwitchKind = "game" | "loader" | "pack" | "platform";

/** The field of a switch's plan request (POST …/mods/versions/plan) that names its target, by what is switched. */
export const SWITCH_FIELD = { game: "gameVersion", loader: "loaderVersion", pack: "packFileId", platform: "template" } as const satisfies Record<SwitchKind, string>;

/** Switching a server's Minecraft version: what the add-ons do (POST …/mods/versions/plan). */
export interface VersionPlan {
  planId: string;
  what: SwitchKind;
  /** What the server runs (a pack switch may be planned before its files tell). */
  platform: Platform | null;
  /** The Minecraft version it runs (for a loader switch, the one it keeps). */
  gameVersion: string | null;
  from: string | null;
  to: string;
  variable: string;
  folder: AddonKind | null;
  /** Installed add-ons replaced by their version for the target. */
  update: PlanFile[];
  /** Installed add-ons with no version for the target (known: the source knows the file), left as they are. */
  missing: { fileName: string; title?: string; known: boolean }[];
  /** A pack switch: the pack's name and its files' names (from and to are their ids); its project when the pack is laid onto a server of another template (`target`). */
  pack?: { title: string; fromName: string | null; toName: string; projectId?: string };
  /** A platform switch: the template that installs the platform switched to (from and to are the platforms); a pack laid onto another template's server: the template that installs the pack. */
  target?: { template: string; display: string };
}
