// What a Minecraft Java server folder is: its platform (which decides whether add-ons are mods or
// plugins), the game version and the loader's version, for the mods and plugins browser. Every
// read goes through the server's jail and is bounded (./small-file, ./dir-names, ./jar-entry): the
// folder is its users', who can plant links, FIFOs, huge files and forged jars, and whatever they
// plant gives a sane answer or none, never an exception.
//
// Signals are taken in four tiers, the first tier that has any deciding (docs/mods.md):
// 1. a mod loader's own libraries (./loader-libraries), the one run.sh names first;
// 2. other mod-loader signs: a server jar that says it is a loader, loader jar names, Fabric's and
//    Quilt's launcher files;
// 3. plugin platforms: Purpur over Paper over Spigot, since each writes its parents' files too;
// 4. vanilla: a jar holding Mojang's version.json, or minecraft_server.<version>.jar.
import { addonFolder, MOD_PLATFORMS, PLUGIN_PLATFORMS, type Platform, type PlatformInfo } from "../../core/mods/types";
import type { Jail } from "../files/jail";
import { dirNames } from "./dir-names";
import { jarNameSignals, launcherSignals, pluginFileSignals, SAFE_JAR_NAME, versionHistorySignal } from "./folder-signals";
import { readJarEntries } from "./jar-entry";
import { JAR_ENTRIES, jarFacts } from "./jar-facts";
import { libraryGameVersion, librarySignals, runPointer, type Signal } from "./loader-libraries";

/** Jars whose entries are read, at most, and jar names tried to find them. */
const MAX_JARS = 3;
const MAX_JAR_TRIES = 8;
/** Jars a server starts from, by the names installs give them. */
const SERVER_JARS = ["server.jar", "fabric-server-launch.jar", "quilt-server-launch.jar"];
const PLUGIN_ORDER: Platform[] = ["purpur", "paper", "spigot"];

export const NOTHING_RECOGNISED: PlatformInfo = { platform: null, gameVersion: null, folder: null, detectedFrom: "" };

export async function detectPlatform(jail: Jail): Promise<PlatformInfo> {
  const entries = dirNames(jail, "") ?? [];
  const launchers = launcherSignals(jail);
  const pointer = runPointer(jail);
  const libraries = librarySignals(jail, pointer);
  const pointed = !!pointer && libraries[0]?.from === `${pointer.path}/${pointer.version}`;
  const listedJars = entries.filter((e) => (e.kind === "file" || e.kind === "link") && SAFE_JAR_NAME.test(e.name) && !/installer/i.test(e.name)).map((e) => e.name).sort();
  const jars = await jarSignals(jail, [...launchers.serverJars, ...SERVER_JARS, ...listedJars]);
  const names = jarNameSignals(entries);
  const history = versionHistorySignal(jail);

  // In order of strength within each tier: what decides first, and whose versions are taken first.
  const signals: Signal[] = [...libraries, ...(history ? [history] : []), ...jars, ...names, ...launchers.signals, ...pluginFileSignals(jail)];
  const chosen = choose(signals, libraries, pointed, jars);
  if (!chosen) return { ...NOTHING_RECOGNISED };

  const platform = chosen.platform;
  const same = signals.filter((s) => s.platform === platform);
  const family = signals.filter((s) => familyOf(s.platform) === familyOf(platform));
  const vanilla = signals.filter((s) => s.platform === "vanilla");
  const gameVersion = chosen.gameVersion ?? firstOf(same, "gameVersion") ?? firstOf(family, "gameVersion") ?? libraryGameVersion(jail, platform) ?? firstOf(vanilla, "gameVersion");
  const loaderVersion = chosen.loaderVersion ?? firstOf(same, "loaderVersion");
  return {
    platform,
    gameVersion,
    ...(loaderVersion && platform !== "vanilla" ? { loaderVersion } : {}),
    folder: addonFolder(platform),
    detectedFrom: chosen.from,
  };
}

function choose(signals: Signal[], libraries: Signal[], pointed: boolean, jars: Signal[]): Signal | undefined {
  if (libraries.length) {
    // Several loaders installed (a switch leaves the old one's libraries): the one run.sh names
    // (already first), else the one the server's own jar says it starts, else LIBRARIES' order.
    const started = pointed ? undefined : jars.find((jar) => libraries.some((l) => l.platform === jar.platform));
    return libraries.find((l) => l.platform === started?.platform) ?? libraries[0];
  }
  const loader = signals.find((s) => MOD_PLATFORMS.includes(s.platform));
  if (loader) return loader;
  for (const platform of PLUGIN_ORDER) {
    const plugin = signals.find((s) => s.platform === platform);
    if (plugin) return plugin;
  }
  return signals.find((s) => s.platform === "vanilla");
}

/** The jars' own facts: up to MAX_JARS readable jars, the named server jars first. */
async function jarSignals(jail: Jail, candidates: string[]): Promise<Signal[]> {
  const signals: Signal[] = [];
  let read = 0;
  for (const path of [...new Set(candidates)].slice(0, MAX_JAR_TRIES)) {
    if (read >= MAX_JARS) break;
    const entries = await readJarEntries(jail, path, JAR_ENTRIES);
    if (!entries) continue;
    read++;
    const facts = jarFacts(entries);
    if (facts.platform) signals.push({ platform: facts.platform, gameVersion: facts.gameVersion, loaderVersion: facts.loaderVersion, from: path });
    else if (facts.mojang && facts.gameVersion) signals.push({ platform: "vanilla", gameVersion: facts.gameVersion, loaderVersion: null, from: path });
  }
  return signals;
}

function familyOf(platform: Platform): string {
  if (platform === "forge" || platform === "neoforge") return "forge";
  if (platform === "fabric" || platform === "quilt") return "fabric";
  return PLUGIN_PLATFORMS.includes(platform) ? "plugins" : "vanilla";
}

function firstOf(signals: Signal[], key: "gameVersion" | "loaderVersion"): string | null {
  return signals.map((s) => s[key]).find((v) => v !== null) ?? null;
}
