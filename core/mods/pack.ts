// Modrinth's modpack format (.mrpack: a zip with modrinth.index.json, overrides/ and
// server-overrides/), read alike by the panel (to show the plan) and the node (which places the
// pack and reads it again rather than trusting a list it is sent). What a server gets of a pack is
// decided here once: every file whose `env.server` is not "unsupported" (optional files too: a
// server's administrator removes what they do not want from the Mods tab), then overrides/, then
// server-overrides/ (each later one wins for a path); client-overrides/ never.
import { z } from "../zod";
import { MAX_ADDON_BYTES, MAX_CHANGE_FILES } from "./change";
import { LOADERS_OF, type PlanWarning, type PlatformInfo } from "./types";

export const PACK_INDEX = "modrinth.index.json";
/** The override folders a server takes, in the order they are laid over each other. */
export const SERVER_OVERRIDES = ["overrides/", "server-overrides/"] as const;
/** The largest .mrpack read (index and overrides; the mods themselves are downloaded one by one). */
export const MAX_PACK_BYTES = 256 * 1024 * 1024;
/** The largest modrinth.index.json read. */
export const MAX_PACK_INDEX_BYTES = 8 * 1024 * 1024;

/**
 * A path a pack may write, relative to the server's folder: plain segments of the characters
 * release files use, at most 8 deep; never "." or "..", nor a name of Kiln's own (its staging
 * folders ".kiln-…", its partial files "….kiln-partial"). A dot-name is otherwise a pack's to
 * ship (Fabric's own ".fabric/", a ".gitkeep"). The jail refuses a way out again at every use;
 * this refuses what no pack needs before anything is asked.
 */
const SEGMENT = /^[A-Za-z0-9._+\-()[\] ,'!&@~=]{1,151}$/;
const KILNS_OWN = /^\.kiln|\.kiln-partial$/i;
export function isPackPath(path: string): boolean {
  if (path.length === 0 || path.length > 400) return false;
  const segments = path.split("/");
  return segments.length <= 8 && segments.every((s) => SEGMENT.test(s) && s !== "." && s !== ".." && !KILNS_OWN.test(s));
}

const hex = (length: number) => z.string().check(z.regex(new RegExp(`^[0-9a-f]{${length}}$`)));
const side = z.optional(z.enum(["required", "optional", "unsupported"]));

const indexFileSchema = z.object({
  path: z.string().check(z.maxLength(1024)),
  hashes: z.object({ sha1: hex(40), sha512: hex(128) }),
  env: z.optional(z.object({ client: side, server: side })),
  downloads: z.array(z.string().check(z.maxLength(2048))).check(z.minLength(1), z.maxLength(16)),
  fileSize: z.number().check(z.int(), z.gte(0), z.lte(MAX_ADDON_BYTES)),
});

export const packIndexSchema = z.object({
  formatVersion: z.literal(1),
  game: z.literal("minecraft"),
  versionId: z.string().check(z.maxLength(256)),
  name: z.string().check(z.maxLength(512)),
  summary: z.optional(z.string().check(z.maxLength(4096))),
  files: z.array(indexFileSchema).check(z.maxLength(MAX_CHANGE_FILES)),
  dependencies: z.record(z.string().check(z.maxLength(64)), z.string().check(z.maxLength(128))),
});
export type PackIndex = z.infer<typeof packIndexSchema>;

/** One file of a pack the server gets: where it goes, and its first download with its hashes. */
export interface PackFile {
  path: string;
  url: string;
  size: number;
  sha512: string;
  sha1: string;
}

/** The index's files a server takes (see above); a path a pack may not write is refused by the caller. */
export function serverFiles(index: PackIndex): PackFile[] {
  return index.files
    .filter((f) => f.env?.server !== "unsupported")
    .map((f) => ({ path: f.path, url: f.downloads[0]!, size: f.fileSize, sha512: f.hashes.sha512, sha1: f.hashes.sha1 }));
}

/** The path an override entry lands on, or null for an entry a server does not take (client-overrides/, the index, a folder). */
export function overrideTarget(entryName: string): string | null {
  for (const prefix of SERVER_OVERRIDES) {
    if (entryName.startsWith(prefix) && !entryName.endsWith("/")) return entryName.slice(prefix.length);
  }
  return null;
}

/** What runs the pack, from its `dependencies`: the loader (Kiln's platform name) and the Minecraft version. */
export type PackLoader = "fabric" | "quilt" | "forge" | "neoforge" | "vanilla";

export function packPlatform(index: Pick<PackIndex, "dependencies">): { loader: PackLoader; loaderVersion: string | null; gameVersion: string | null } {
  const d = index.dependencies;
  const gameVersion = d.minecraft ?? null;
  if (d["fabric-loader"]) return { loader: "fabric", loaderVersion: d["fabric-loader"], gameVersion };
  if (d["quilt-loader"]) return { loader: "quilt", loaderVersion: d["quilt-loader"], gameVersion };
  if (d.neoforge) return { loader: "neoforge", loaderVersion: d.neoforge, gameVersion };
  if (d.forge) return { loader: "forge", loaderVersion: d.forge, gameVersion };
  return { loader: "vanilla", loaderVersion: null, gameVersion };
}

/** Kiln's note of what a change is, in a few words, for the backup's note. */
const note = z._default(z.string().check(z.maxLength(200)), "");
const sourceId = z.string().check(z.regex(/^[A-Za-z0-9_.-]{1,64}$/));
/** Where the pack comes from, when a source lists it: kept with the installed pack, to look for its updates. */
const origin = z.optional(z.strictObject({ source: z.literal("modrinth"), projectId: sourceId, versionId: sourceId, title: z.string().check(z.maxLength(512)), versionNumber: z.string().check(z.maxLength(256)) }));
/**
 * A new server's pack: placed once the install queued before it has finished (in the server's
 * power queue, so no start comes between), and only when that install succeeded and the server it
 * made runs the pack's loader and Minecraft version.
 */
const afterInstall = z.optional(z.literal(true));

/**
 * What the panel asks the node to read or install: the pack file as its source lists it, or a
 * pack the user uploaded to the node (by the id and SHA-512 the upload answered). The node reads
 * the index itself.
 */
export const packChangeSchema = z.union([
  z.strictObject({
    url: z.string().check(z.maxLength(2048)),
    size: z.number().check(z.int(), z.gte(0), z.lte(MAX_PACK_BYTES)),
    sha512: hex(128),
    origin,
    note,
    afterInstall,
  }),
  z.strictObject({
    upload: z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)),
    sha512: hex(128),
    origin,
    note,
    afterInstall,
  }),
]);
export type PackChange = z.infer<typeof packChangeSchema>;

/** What a pack lays over a server's folder, as the node read it from the pack (POST …/mods/packs/read). */
export interface PackReading {
  name: string;
  versionId: string;
  summary: string;
  dependencies: Record<string, string>;
  /** The index's files the server gets, and whether something is at that place already. */
  files: PackEntry[];
  /** The override files the server gets (overrides/, then server-overrides/), the same way. */
  overrides: PackEntry[];
  /** Files the installed pack placed that this one no longer has, unchanged since: an update removes them. */
  removes: PackEntry[];
}

/** The pack a server has, as the node placed it: an update removes the files of it the new version drops. */
export interface InstalledPack {
  name: string;
  /** The pack's own version (its index's versionId). */
  versionId: string;
  origin?: { source: "modrinth"; projectId: string; versionId: string; title: string; versionNumber: string };
  /** Every file it placed, with the SHA-512 it had then (a file the user changed since is theirs). */
  files: { path: string; sha512: string }[];
  /** ms since the epoch */
  at: number;
}

export interface PackEntry {
  path: string;
  size: number;
  replaces: boolean;
}

/** A modpack plan: the pack, what it lays over the folder, and whether it fits the server. */
export interface PackPlan {
  planId: string;
  /** "file": a .mrpack the user uploaded (no project or version id then). */
  source: "modrinth" | "file";
  projectId: string | null;
  versionId: string | null;
  title: string;
  versionNumber: string;
  /** The .mrpack as the source lists it, or the upload (what the node reads again, and checks again). */
  pack: { url: string; size: number; sha512: string } | { upload: string; sha512: string };
  loader: ReturnType<typeof packPlatform>["loader"];
  loaderVersion: string | null;
  gameVersion: string | null;
  files: PackEntry[];
  overrides: PackEntry[];
  removes: PackEntry[];
  /** wrongLoader / wrongGameVersion: the pack is for another loader or Minecraft version than the server runs. */
  warnings: PlanWarning[];
  /** The pack cannot run on this server: the plan cannot be applied. */
  blocked: boolean;
}

/** What keeps a pack from running on a server: another loader, another Minecraft version (none: it runs). */
export function packMisfits(platform: Pick<PlatformInfo, "platform" | "gameVersion">, title: string, pack: { loader: PackLoader; gameVersion: string | null }): PlanWarning[] {
  const warnings: PlanWarning[] = [];
  const { loader, gameVersion } = pack;
  const runs = platform.platform !== null && (platform.platform === loader || (loader !== "vanilla" && LOADERS_OF[platform.platform].includes(loader)));
  if (!runs) warnings.push({ code: "wrongLoader", title, other: loader });
  if (gameVersion && platform.gameVersion && gameVersion !== platform.gameVersion) warnings.push({ code: "wrongGameVersion", title, other: gameVersion });
  return warnings;
}
