// Forge and NeoForge for PufferPanel v3 templates: resolveforgeversion / resolveneoforgeversion
// (which version an earlier install left in libraries/, handed to a variable the run command
// reads) and neoforgedl (NeoForge's installer from its Maven repository, the newest build for a
// Minecraft version when none is given). Versions are compared part by part as numbers.
import { z } from "../../core/zod";
import type { StepOf } from "../../core/definition/steps";
import { readFolder } from "../files/listing";
import { statPath } from "../files/operations";
import { downloadIntoJail, fetchOk } from "./http";
import type { StepContext, StepOutput } from "./types";
import { message } from "../../core/live/daemon-message";
import { compareVersions, mavenVersions, neoforgePrefix, safeVersion } from "../../core/mods/versions";

const FORGE_LIBRARIES = "libraries/net/minecraftforge/forge";
const NEOFORGE_LIBRARIES = "libraries/net/neoforged/neoforge";
const NEOFORGE_PATH = "releases/net/neoforged/neoforge";

/**
 * The newest installed version under `libraries` that has its unix_args.txt (a complete server
 * install), preferring those made for `minecraftVersion` when given.
 */
function installedVersion(ctx: StepContext, libraries: string, minecraftVersion: string, name: string): string {
  let folders: string[];
  try {
    folders = readFolder(ctx.jail, libraries).filter((e) => e.target.isDirectory()).map((e) => e.name);
  } catch {
    throw new Error(`${name} is not installed (${libraries} does not exist)`);
  }
  const complete = folders.filter((v) => {
    try {
      return statPath(ctx.jail, `${libraries}/${v}/unix_args.txt`).isFile();
    } catch {
      return false;
    }
  });
  const matching = complete.filter((v) => minecraftVersion && v.startsWith(minecraftVersion));
  const [newest] = (matching.length ? matching : complete).sort(compareVersions).reverse();
  if (!newest) throw new Error(`${name} is not installed (no version in ${libraries} has unix_args.txt)`);
  return newest;
}

export async function resolveforgeversion(step: StepOf<"resolveforgeversion">, ctx: StepContext): Promise<StepOutput> {
  const version = step.version || installedVersion(ctx, FORGE_LIBRARIES, step.minecraftVersion, "Forge");
  ctx.log(message("daemon.step.forgeResolved", { version }));
  return { variables: { [step.outputVariable]: version } };
}

export async function resolveneoforgeversion(step: StepOf<"resolveneoforgeversion">, ctx: StepContext): Promise<StepOutput> {
  const version = step.version || installedVersion(ctx, NEOFORGE_LIBRARIES, step.minecraftVersion, "NeoForge");
  ctx.log(message("daemon.step.neoforgeResolved", { version }));
  return { variables: { [step.outputVariable]: version } };
}

const versionsSchema = z.array(z.string());

/** The newest NeoForge for the Minecraft version, from its Maven listing (core/mods/versions neoforgePrefix says which are its). */
async function newestNeoForge(minecraftVersion: string, ctx: StepContext): Promise<string> {
  const url = `${ctx.sources.neoforge}/${NEOFORGE_PATH}/maven-metadata.xml`;
  const xml = await (await fetchOk(url, ctx)).text();
  const versions = versionsSchema.parse(mavenVersions(xml));
  const prefix = neoforgePrefix(minecraftVersion);
  const [newest] = prefix ? versions.filter((v) => v.startsWith(prefix)).sort(compareVersions).reverse() : [];
  if (!newest) throw new Error(`NeoForge has no build for Minecraft ${minecraftVersion}`);
  return newest;
}

export async function neoforgedl(step: StepOf<"neoforgedl">, ctx: StepContext): Promise<StepOutput> {
  // A target that climbs out by its spelling is refused before anything is fetched.
  const target = ctx.jail.normalize(step.target);
  // Both may come from a user's variable and become a path on NeoForge's Maven: only a version's characters pass.
  for (const [field, value] of [["version", step.version], ["minecraftVersion", step.minecraftVersion]] as const) {
    if (value !== "" && !safeVersion(value)) throw new Error(`${field} "${value.slice(0, 64)}" is not a version`);
  }
  const version = step.version || (await newestNeoForge(step.minecraftVersion, ctx));
  const url = `${ctx.sources.neoforge}/${NEOFORGE_PATH}/${version}/neoforge-${version}-installer.jar`;
  ctx.log(message("daemon.step.downloadingNeoforge", { version, url }));
  await downloadIntoJail(url, ctx.jail, target, ctx);
  return { variables: { [step.outputVariable]: version } };
}
