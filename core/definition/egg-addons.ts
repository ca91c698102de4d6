// What an egg's servers run, for the mods and plugins browser (./addons): an egg has no field for
// it, but its install script says it by where it downloads the server from (Paper's and Purpur's
// build services, Fabric's and Quilt's meta, Forge's and NeoForge's Maven, Mojang's manifest,
// Spigot's BuildTools). An egg whose script names exactly one of them gets that platform, with the
// variable that holds its Minecraft version; any other egg gets no statement (the server's files
// tell once it has run). Read from the eggs Pterodactyl and Pelican publish
// (../shared/fixtures/eggs/minecraft/java).
import type { AddonsStatement } from "./addons";
import type { Platform } from "../mods/types";

interface Installer {
  platform: Platform;
  /** what the install script contains when it installs this platform */
  says: RegExp;
  /** the variables that hold the Minecraft version, in the order they are looked for */
  versionVariables: readonly string[];
}

const GAME_VERSION = ["MINECRAFT_VERSION", "MC_VERSION", "VANILLA_VERSION"] as const;

const INSTALLERS: readonly Installer[] = [
  // Paper's build service serves Folia and Velocity too: the project must be Paper.
  { platform: "paper", says: /papermc\.io[\s\S]*(?:PROJECT=["']?paper\b|projects\/paper\b)|(?:PROJECT=["']?paper\b|projects\/paper\b)[\s\S]*papermc\.io/, versionVariables: GAME_VERSION },
  { platform: "purpur", says: /api\.purpurmc\.org/, versionVariables: GAME_VERSION },
  { platform: "fabric", says: /meta\.fabricmc\.net/, versionVariables: GAME_VERSION },
  { platform: "quilt", says: /quiltmc\.org/, versionVariables: GAME_VERSION },
  { platform: "neoforge", says: /maven\.neoforged\.net/, versionVariables: GAME_VERSION },
  { platform: "forge", says: /(?:maven|files)\.minecraftforge\.net/, versionVariables: GAME_VERSION },
  { platform: "vanilla", says: /(?:launchermeta|piston-meta)\.mojang\.com/, versionVariables: GAME_VERSION },
  // BuildTools builds the version DL_VERSION names.
  { platform: "spigot", says: /hub\.spigotmc\.org/, versionVariables: ["DL_VERSION", ...GAME_VERSION] },
];

/** The statement an egg's install script implies, or undefined; `variables`: the template's variable names (after renames). */
export function eggAddons(installScript: string, variables: readonly string[]): AddonsStatement | undefined {
  const found = INSTALLERS.filter((installer) => installer.says.test(installScript));
  if (found.length !== 1) return undefined;
  const { platform, versionVariables } = found[0]!;
  const variable = versionVariables.find((name) => variables.includes(name));
  return variable ? { platform, gameVersion: `\${${variable}}` } : { platform };
}
