// What the mod loaders' installers leave in libraries/: one Maven folder per installed version.
// These are the strongest signals of a loaded server (a jar can be renamed to anything, the
// libraries a loader runs from cannot), so ./detect-platform puts them first. Only these fixed
// paths are looked at, each for at most MAX_DIR_ENTRIES names, and only folder names that are
// versions count.
//
// Forge and NeoForge (1.17+) installers write run.sh naming the one version that starts
// (`@libraries/net/minecraftforge/forge/1.20.1-47.2.0/unix_args.txt`), and Pterodactyl's eggs
// link unix_args.txt to it: when several loaders or versions are installed, that one wins.
import type { Platform } from "../../core/mods/types";
import type { Jail } from "../files/jail";
import { dirNames } from "./dir-names";
import { readLinkText, readSmallText } from "./small-file";
import { newest } from "./version-text";
import { safeGameVersion, safeVersion } from "../../core/mods/versions";

export interface Signal {
  platform: Platform;
  gameVersion: string | null;
  loaderVersion: string | null;
  /** The path (relative to the server's folder) the signal was read from. */
  from: string;
}

type Versions = { gameVersion: string | null; loaderVersion: string | null };

/** "1.20.1-47.2.0" → 1.20.1 and 47.2.0; 1.7.10's "1.7.10-10.13.4.1614-1.7.10" repeats the game version. */
export function forgeVersions(folder: string): Versions {
  const match = /^(\d+\.\d+(?:\.\d+)?)-(.+)$/.exec(folder);
  if (!match) return { gameVersion: null, loaderVersion: folder };
  const [, game, rest] = match as unknown as [string, string, string];
  return { gameVersion: game, loaderVersion: rest.endsWith(`-${game}`) ? rest.slice(0, -game.length - 1) : rest };
}

/**
 * NeoForge numbers its builds after Minecraft without the "1.": 20.4.237 is for 1.20.4, 21.0.x for
 * 1.21. Only the 20–25 majors are read that way; a later scheme is not guessed at (the game version
 * then comes from libraries/net/minecraft/server).
 */
export function neoForgeVersions(folder: string): Versions {
  const match = /^(\d+)\.(\d+)\./.exec(folder);
  const major = Number(match?.[1]);
  if (!match || major < 20 || major > 25) return { gameVersion: null, loaderVersion: folder };
  return { gameVersion: match[2] === "0" ? `1.${major}` : `1.${major}.${Number(match[2])}`, loaderVersion: folder };
}

const LIBRARIES: { path: string; platform: Platform; versions: (folder: string) => Versions }[] = [
  { path: "libraries/net/neoforged/neoforge", platform: "neoforge", versions: neoForgeVersions },
  // NeoForge for 1.20.1 kept Forge's numbering under its own group.
  { path: "libraries/net/neoforged/forge", platform: "neoforge", versions: forgeVersions },
  { path: "libraries/net/minecraftforge/forge", platform: "forge", versions: forgeVersions },
  { path: "libraries/org/quiltmc/quilt-loader", platform: "quilt", versions: (folder) => ({ gameVersion: null, loaderVersion: folder }) },
  { path: "libraries/net/fabricmc/fabric-loader", platform: "fabric", versions: (folder) => ({ gameVersion: null, loaderVersion: folder }) },
];

/** Game versions the loaders' other libraries name: Fabric's and Quilt's mappings, Forge's and NeoForge's patched server. */
const GAME_LIBRARIES: { path: string; platforms: Platform[]; version: (folder: string) => string | null }[] = [
  { path: "libraries/net/fabricmc/intermediary", platforms: ["fabric", "quilt"], version: (folder) => folder },
  // "1.20.1-20230612.114412": the game version, then the MCP build's time stamp.
  { path: "libraries/net/minecraft/server", platforms: ["forge", "neoforge"], version: (folder) => /^(.+)-\d{8}\.\d{6}$/.exec(folder)?.[1] ?? null },
];

export interface RunPointer {
  /** One of LIBRARIES' paths. */
  path: string;
  version: string;
}

const RUN_ARGS = /(libraries\/net\/(?:minecraftforge\/forge|neoforged\/neoforge|neoforged\/forge))\/([^/\s"'@]+)\/unix_args\.txt/;

/** The loader version run.sh or the unix_args.txt link names, if any. */
export function runPointer(jail: Jail): RunPointer | null {
  for (const text of [readLinkText(jail, "unix_args.txt"), readSmallText(jail, "run.sh")]) {
    const match = text ? RUN_ARGS.exec(text) : null;
    const version = safeVersion(match?.[2]);
    if (match && version) return { path: match[1]!, version };
  }
  return null;
}

/** The version folders under `path` (folders only, versions only). */
function versionFolders(jail: Jail, path: string): string[] {
  return (dirNames(jail, path) ?? []).filter((entry) => entry.kind === "folder" && safeVersion(entry.name)).map((entry) => entry.name);
}

/**
 * One signal per installed loader, in LIBRARIES' order: the version run.sh names when it is there,
 * else the newest. The signal run.sh names comes first.
 */
export function librarySignals(jail: Jail, pointer: RunPointer | null): Signal[] {
  const signals: Signal[] = [];
  for (const library of LIBRARIES) {
    const folders = versionFolders(jail, library.path);
    const pointed = pointer?.path === library.path && folders.includes(pointer.version);
    const folder = pointed ? pointer!.version : newest(folders);
    if (!folder) continue;
    const signal = { platform: library.platform, ...library.versions(folder), from: `${library.path}/${folder}` };
    if (pointed) signals.unshift(signal);
    else signals.push(signal);
  }
  return signals;
}

/** The game version the other libraries give for `platform`, when it has any. */
export function libraryGameVersion(jail: Jail, platform: Platform): string | null {
  for (const library of GAME_LIBRARIES) {
    if (!library.platforms.includes(platform)) continue;
    const version = safeGameVersion(newest(versionFolders(jail, library.path).map(library.version).filter((v): v is string => v !== null)));
    if (version) return version;
  }
  return null;
}
