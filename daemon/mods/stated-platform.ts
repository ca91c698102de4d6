// What a server is for the mods and plugins browser: what its files say (./detect-platform), and
// where they say nothing, what its template states (core/definition/addons). A game version the
// files do not give is taken from the statement too, once its variables are filled in and it reads
// as a Minecraft version.
import { substitute, variableValues, type ServerDefinition, type Values } from "../../core/definition";
import { addonFolder, type PlatformInfo } from "../../core/mods/types";
import type { Jail } from "../files/jail";
import { detectPlatform } from "./detect-platform";
import { safeGameVersion } from "../../core/mods/versions";

/** What the server is now: its files, and its template's statement where they say nothing. */
export async function serverPlatform(server: { jail: Jail; definition: ServerDefinition }): Promise<PlatformInfo> {
  return withStatement(await detectPlatform(server.jail), server.definition, variableValues(server.definition));
}

export function withStatement(found: PlatformInfo, definition: ServerDefinition, values: Values): PlatformInfo {
  const stated = definition.addons;
  if (!stated) return found;
  const gameVersion = stated.gameVersion ? safeGameVersion(substitute(stated.gameVersion, values).trim()) : null;
  if (!found.platform) return { platform: stated.platform, gameVersion, folder: addonFolder(stated.platform), detectedFrom: "template" };
  if (!found.gameVersion && found.platform === stated.platform && gameVersion) return { ...found, gameVersion };
  return found;
}
