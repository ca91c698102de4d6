// The variables a new server from a CurseForge modpack sets, read from its template's curseforge
// install step (PufferPanel's shape, which Kiln's own template keeps): the step's projectId and
// fileId are each exactly one variable (`${projectId}`), its java the installed Java named by one
// (`java${javaversion}`), or absent. A template whose step names them otherwise cannot be given a
// pack: nothing says which variable to set.
import type { Step } from "./steps";
import { addonFolder, type Platform } from "../mods/types";
import { MINECRAFT_JAVA_TYPE } from "../players/minecraft-java";

export interface CurseForgePackVariables {
  projectId: string;
  fileId: string;
  /** The variable holding the Java major version the pack's loader runs on; null when the step names none. */
  java: string | null;
}

const VARIABLE = /^\$\{([A-Za-z0-9_]{1,64})\}$/;
const JAVA = /^java\$\{([A-Za-z0-9_]{1,64})\}$/;

export function curseforgePackVariables(install: readonly Step[]): CurseForgePackVariables | null {
  for (const step of install) {
    if (step.type !== "curseforge") continue;
    const projectId = VARIABLE.exec(String(step.projectId))?.[1];
    const fileId = VARIABLE.exec(String(step.fileId))?.[1];
    if (!projectId || !fileId) continue;
    const java = JAVA.exec(String(step.java))?.[1] ?? null;
    return { projectId, fileId, java };
  }
  return null;
}

/**
 * Whether a CurseForge pack may be laid onto a server of this definition (its template swapped for
 * the one that installs the pack): its template states a mod loader or vanilla (a pack brings
 * mods), or states nothing and is of the Minecraft Java type. What the server's files show never
 * decides alone: its users write them, and a server of another game must not become this one.
 */
export function takesPackOnto(definition: { type?: string; addons?: { platform?: Platform } }): boolean {
  const platform = definition.addons?.platform;
  if (!platform) return definition.type === MINECRAFT_JAVA_TYPE;
  return addonFolder(platform) === "mods" || platform === "vanilla";
}

/**
 * The Java major version Minecraft `gameVersion` runs on: 8 to 1.16, 17 from 1.17, 21 from 1.20.5
 * (Mojang's requirements; a loader needs what its game needs). null for a version that is not
 * numbered 1.x (a snapshot name): the template's own choice stands.
 */
export function javaForMinecraft(gameVersion: string): 8 | 17 | 21 | null {
  const parts = /^1\.(\d+)(?:\.(\d+))?$/.exec(gameVersion);
  if (!parts) return null;
  const [minor, patch] = [Number(parts[1]), Number(parts[2] ?? 0)];
  if (minor <= 16) return 8;
  if (minor < 20 || (minor === 20 && patch <= 4)) return 17;
  return 21;
}
