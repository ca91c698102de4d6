// What a server jar says about itself, from a few small entries (read by ./jar-entry):
// - version.json: Mojang's ({"id": "1.20.1", "world_version": 3465, ...}) in vanilla jars since
//   1.14 and in the 1.18+ bundler; an old Forge universal jar carries a launcher profile there
//   instead ({"id": "1.12.2-forge-14.23.5.2860", "inheritsFrom": "1.12.2"}).
// - install.properties: Fabric's single-file server launcher (meta.fabricmc.net .../server/jar,
//   what Kiln's own Fabric install saves as server.jar): fabric-loader-version, game-version.
// - fabric-server-launch.properties and MANIFEST.MF's Class-Path: the launch jar Fabric's (and
//   Quilt's) installer writes, whose class path names libraries/.../fabric-loader/<v>/ and
//   .../intermediary/<game>/.
// - META-INF/versions.list: the jar a bundler unpacks (vanilla server-1.20.1.jar, Paperclip's
//   paper-1.20.1.jar or purpur-1.20.1.jar, Spigot's spigot-1.20.1-R0.1-SNAPSHOT.jar).
// - MANIFEST.MF's Main-Class: Paperclip, CraftBukkit, a loader's launcher.
import type { Platform } from "../../core/mods/types";
import { jsonObject, properties } from "./version-text";
import { safeGameVersion, safeVersion } from "../../core/mods/versions";

export const JAR_ENTRIES = ["version.json", "install.properties", "fabric-server-launch.properties", "META-INF/MANIFEST.MF", "META-INF/versions.list"] as const;

export interface JarFacts {
  /** The loader or plugin platform the jar names; null when it names none (vanilla, or unknown). */
  platform: Platform | null;
  gameVersion: string | null;
  loaderVersion: string | null;
  /** The jar holds Mojang's own version.json: it is (or bundles) the vanilla server. */
  mojang: boolean;
}

const MAIN_CLASSES: [prefix: string, platform: Platform][] = [
  ["net.fabricmc.", "fabric"],
  ["org.quiltmc.", "quilt"],
  ["io.papermc.paperclip.", "paper"],
  ["com.destroystokyo.paperclip.", "paper"],
  ["org.bukkit.craftbukkit.", "spigot"],
  ["net.minecraftforge.", "forge"],
  ["cpw.mods.", "forge"],
  ["net.neoforged.", "neoforge"],
];

const BUNDLED: [pattern: RegExp, platform: Platform | null][] = [
  [/^purpur-(.+)\.jar$/, "purpur"],
  [/^paper-(.+)\.jar$/, "paper"],
  [/^spigot-(.+?)(?:-R\d[^/]*)?\.jar$/, "spigot"],
  [/^server-(.+)\.jar$/, null],
];

const CLASS_PATH: [prefix: string, platform: Platform | null][] = [
  ["libraries/org/quiltmc/quilt-loader/", "quilt"],
  ["libraries/net/fabricmc/fabric-loader/", "fabric"],
  ["libraries/net/fabricmc/intermediary/", null],
];

export function jarFacts(entries: ReadonlyMap<string, Buffer>): JarFacts {
  const text = (name: string) => entries.get(name)?.toString("utf8") ?? "";
  const candidates: Partial<JarFacts>[] = [];

  const install = properties(text("install.properties"));
  const quiltLoader = safeVersion(install.get("quilt-loader-version"));
  const fabricLoader = safeVersion(install.get("fabric-loader-version"));
  if (quiltLoader || fabricLoader) {
    candidates.push({ platform: quiltLoader ? "quilt" : "fabric", loaderVersion: quiltLoader ?? fabricLoader, gameVersion: safeGameVersion(install.get("game-version")) });
  }
  if (entries.has("fabric-server-launch.properties")) candidates.push({ platform: "fabric" });

  const manifest = manifestAttributes(text("META-INF/MANIFEST.MF"));
  for (const path of (manifest.get("Class-Path") ?? "").split(/\s+/)) {
    for (const [prefix, platform] of CLASS_PATH) {
      if (!path.startsWith(prefix)) continue;
      const version = path.slice(prefix.length).split("/")[0];
      candidates.push(platform ? { platform, loaderVersion: safeVersion(version) } : { gameVersion: safeGameVersion(version) });
    }
  }

  for (const line of text("META-INF/versions.list").split(/\r?\n/)) {
    const file = line.split("\t")[2]?.split("/").at(-1) ?? "";
    for (const [pattern, platform] of BUNDLED) {
      const match = pattern.exec(file);
      if (match) candidates.push({ platform, gameVersion: safeGameVersion(match[1]), mojang: platform === null });
    }
  }

  const mainClass = manifest.get("Main-Class") ?? "";
  const named = MAIN_CLASSES.find(([prefix]) => mainClass.startsWith(prefix));
  if (named) candidates.push({ platform: named[1] });

  const version = jsonObject(text("version.json"));
  if (version && (typeof version.world_version === "number" || typeof version.protocol_version === "number")) {
    candidates.push({ gameVersion: safeGameVersion(version.id), mojang: true });
  } else if (version && typeof version.inheritsFrom === "string" && String(version.id).toLowerCase().includes("forge")) {
    candidates.push({ platform: "forge", gameVersion: safeGameVersion(version.inheritsFrom) });
  }

  const first = <K extends keyof JarFacts>(key: K) => candidates.map((c) => c[key]).find((v) => v !== undefined && v !== null) ?? null;
  return {
    platform: first("platform") as Platform | null,
    gameVersion: first("gameVersion") as string | null,
    loaderVersion: first("loaderVersion") as string | null,
    mojang: candidates.some((c) => c.mojang),
  };
}

/** The main section of a MANIFEST.MF: "Name: value" lines, a line starting with one space continuing the one before. */
function manifestAttributes(text: string): Map<string, string> {
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === "") break;
    if (line.startsWith(" ") && lines.length) lines[lines.length - 1] += line.slice(1);
    else lines.push(line);
  }
  const attributes = new Map<string, string>();
  for (const line of lines) {
    const at = line.indexOf(": ");
    if (at > 0) attributes.set(line.slice(0, at), line.slice(at + 2).trim());
  }
  return attributes;
}
