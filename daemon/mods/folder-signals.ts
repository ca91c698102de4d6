// The signals a server's folder shows by its files' names and a few small texts, as the
// platforms' own installs and first starts write them (Pterodactyl's eggs, PufferPanel's
// templates, the Fabric, Quilt and Forge installers, Paper and its forks):
// - Paper writes version_history.json ({"currentVersion": "git-Paper-196 (MC: 1.20.1)"}; Purpur
//   names itself there), config/paper-global.yml (paper.yml before 1.19); Purpur adds purpur.yml;
//   Spigot (and everything built on it) writes spigot.yml.
// - Downloads keep their names unless an egg renames them: paper-1.20.1-196.jar,
//   purpur-1.20.1-2062.jar, spigot-1.20.1.jar, forge-1.12.2-14.23.5.2860.jar (old Forge, also
//   -universal), fabric-server-mc.1.20.1-loader.0.15.11-launcher.1.0.1.jar, minecraft_server.1.12.2.jar.
// - The Fabric and Quilt installers write fabric-server-launch.jar / quilt-server-launch.jar and
//   fabric-server-launcher.properties / quilt-server-launcher.properties (serverJar=, the vanilla
//   jar the launcher starts); the loaders keep .fabric/ and .quilt/ beside.
import type { Platform } from "../../core/mods/types";
import type { Jail } from "../files/jail";
import type { DirName } from "./dir-names";
import type { Signal } from "./loader-libraries";
import { kindAt, readSmallText } from "./small-file";
import { jsonObject, properties } from "./version-text";
import { safeGameVersion, safeVersion } from "../../core/mods/versions";

/** Paper and every fork of it write version_history.json; only a fork that names itself is told apart. */
export function versionHistorySignal(jail: Jail): Signal | null {
  const text = readSmallText(jail, "version_history.json");
  const current = text === null ? null : jsonObject(text)?.currentVersion;
  if (typeof current !== "string") return null;
  return {
    platform: /purpur/i.test(current) ? "purpur" : "paper",
    gameVersion: safeGameVersion(/\(MC: ([^)]+)\)/.exec(current)?.[1]),
    loaderVersion: safeVersion(/^git-[A-Za-z]+-(\d+)\b/.exec(current)?.[1]),
    from: "version_history.json",
  };
}

/** Files only a plugin platform writes, the more specific first. */
const PLUGIN_FILES: [path: string, platform: Platform][] = [
  ["purpur.yml", "purpur"],
  ["config/paper-global.yml", "paper"],
  ["paper.yml", "paper"],
  ["spigot.yml", "spigot"],
];

export function pluginFileSignals(jail: Jail): Signal[] {
  return PLUGIN_FILES.filter(([path]) => kindAt(jail, path) === "file").map(([path, platform]) => ({ platform, gameVersion: null, loaderVersion: null, from: path }));
}

const LAUNCHERS: [file: string, launchJar: string, folder: string, platform: Platform][] = [
  ["fabric-server-launcher.properties", "fabric-server-launch.jar", ".fabric", "fabric"],
  ["quilt-server-launcher.properties", "quilt-server-launch.jar", ".quilt", "quilt"],
];

/** Fabric's and Quilt's launcher files and folders, and the vanilla jars their .properties name. */
export function launcherSignals(jail: Jail): { signals: Signal[]; serverJars: string[] } {
  const signals: Signal[] = [];
  const serverJars: string[] = [];
  for (const [file, launchJar, folder, platform] of LAUNCHERS) {
    const text = readSmallText(jail, file);
    const serverJar = text === null ? undefined : properties(text).get("serverJar");
    if (serverJar && SAFE_JAR_PATH.test(serverJar)) serverJars.push(serverJar);
    for (const [path, kind] of [[launchJar, "file"], [file, "file"], [folder, "folder"]] as const) {
      if (kindAt(jail, path) === kind) signals.push({ platform, gameVersion: null, loaderVersion: null, from: path });
    }
  }
  return { signals, serverJars };
}

/**
 * The jar names and paths looked at: what installs write (letters, digits, . + _ - and folders),
 * never a way up. Whatever else a user names a jar is passed over, so a path shown as where a
 * signal came from is as plain as a version.
 */
export const SAFE_JAR_NAME = /^[0-9A-Za-z_+-][0-9A-Za-z.+_-]*\.jar$/;
const SAFE_JAR_PATH = /^(?:[0-9A-Za-z_+-][0-9A-Za-z.+_-]*\/)*[0-9A-Za-z_+-][0-9A-Za-z.+_-]*\.jar$/;

/** Jar names and what each says: platform, then the match groups of the game and the loader version. */
const JAR_NAMES: [pattern: RegExp, platform: Platform, game: number, loader: number][] = [
  [/^purpur-(.+?)(?:-(\d+))?\.jar$/, "purpur", 1, 2],
  [/^paper-(.+?)(?:-(\d+))?\.jar$/, "paper", 1, 2],
  [/^spigot-(.+?)(?:-R\d[0-9A-Za-z.-]*)?\.jar$/, "spigot", 1, 0],
  [/^purpur\.jar$/, "purpur", 0, 0],
  [/^paper\.jar$/, "paper", 0, 0],
  [/^spigot\.jar$/, "spigot", 0, 0],
  [/^forge-(\d+\.\d+(?:\.\d+)?)-([0-9][0-9A-Za-z.]*?)(?:-\1)?(?:-universal|-shim)?\.jar$/, "forge", 1, 2],
  [/^fabric-server-mc\.(.+)-loader\.(.+)-launcher\.[^-]+\.jar$/, "fabric", 1, 2],
  [/^minecraft_server\.(.+)\.jar$/, "vanilla", 1, 0],
];

/** Signals from the names of jars in the folder's first entries. */
export function jarNameSignals(entries: readonly DirName[]): Signal[] {
  const signals: Signal[] = [];
  for (const { name, kind } of entries) {
    if ((kind !== "file" && kind !== "link") || !SAFE_JAR_NAME.test(name)) continue;
    for (const [pattern, platform, game, loader] of JAR_NAMES) {
      const match = pattern.exec(name);
      if (!match) continue;
      signals.push({ platform, gameVersion: game ? safeGameVersion(match[game]) : null, loaderVersion: loader ? safeVersion(match[loader]) : null, from: name });
      break;
    }
  }
  return signals;
}
