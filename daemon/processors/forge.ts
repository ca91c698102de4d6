// The forgedl and spongeforgedl steps: Forge installers from Forge's Maven repository, and
// SpongeForge (a Forge mod) with the Forge build it was made for.
//
// forgedl takes a full Forge version ("1.20.1-47.1.0": Minecraft version, dash, Forge build).
// A bare Minecraft version ("1.20.1") is resolved through promotions_slim.json under the same
// base URL, taking the recommended build and else the latest one, as Forge's own site does.
// Very old Forge versions whose Maven name differs (1.7.10's "-1.7.10" suffix) must be written
// out in full.
import { z } from "../../core/zod";
import type { StepOf } from "../../core/definition/steps";
import { downloadInto } from "./download";
import { downloadIntoJail, fetchJson } from "./http";
import type { StepContext, StepOutput } from "./types";
import { message } from "../../core/live/daemon-message";
import { safeVersion } from "../../core/mods/versions";

const FORGE_PATH = "net/minecraftforge/forge";
const BARE_MINECRAFT_VERSION = /^\d+(\.\d+)+$/;

const promotionsSchema = z.object({ promos: z.record(z.string(), z.string()) });

/**
 * PufferPanel v3's form names the file `target` and may leave `version` empty for the latest
 * Forge of `minecraftVersion` (as v3 does); the Forge version it fetched goes to `outputVariable`.
 */
export async function forgedl(step: StepOf<"forgedl">, ctx: StepContext): Promise<StepOutput> {
  // A file name that climbs out by its spelling is refused before anything is fetched.
  const target = ctx.jail.normalize(step.target || step.filename || "");
  // Both may come from a user's variable and become a path on Forge's Maven: only a version's characters pass.
  for (const [field, value] of [["version", step.version], ["minecraftVersion", step.minecraftVersion ?? ""]] as const) {
    if (value !== "" && !safeVersion(value)) throw new Error(`${field} "${value.slice(0, 64)}" is not a version`);
  }
  const version = step.version === "" ? await promoted(step.minecraftVersion ?? "", ctx, ["latest"])
    : BARE_MINECRAFT_VERSION.test(step.version) ? await promoted(step.version, ctx, ["recommended", "latest"])
    : step.version;
  const url = `${ctx.sources.forge}/${FORGE_PATH}/${version}/forge-${version}-installer.jar`;
  ctx.log(message("daemon.step.downloadingForge", { version, url }));
  await downloadIntoJail(url, ctx.jail, target, ctx);
  return step.outputVariable ? { variables: { [step.outputVariable]: version } } : {};
}

async function promoted(minecraft: string, ctx: StepContext, kinds: string[]): Promise<string> {
  const { promos } = await fetchJson(`${ctx.sources.forge}/${FORGE_PATH}/promotions_slim.json`, promotionsSchema, ctx);
  const build = kinds.map((kind) => promos[`${minecraft}-${kind}`]).find(Boolean);
  if (!build) throw new Error(`Forge has no build for Minecraft ${minecraft}`);
  return `${minecraft}-${build}`;
}

const RELEASE_TYPES: Record<string, string> = { recommended: "stable", latest: "bleeding" };

const spongeSchema = z.array(
  z.object({
    version: z.string(),
    artifacts: z.object({ "": z.object({ url: z.string() }) }),
    dependencies: z.object({ minecraft: z.string(), forge: z.string() }),
  }),
);

/** Forge (as forge-installer.jar) plus the SpongeForge jar in mods/. */
export async function spongeforgedl(step: StepOf<"spongeforgedl">, ctx: StepContext): Promise<void> {
  const type = RELEASE_TYPES[step.releaseType];
  if (!type) throw new Error(`releaseType must be "recommended" or "latest", not "${step.releaseType}"`);
  const url = `${ctx.sources.sponge}/v1/org.spongepowered/spongeforge/downloads?type=${type}&limit=1`;
  const [build] = await fetchJson(url, spongeSchema, ctx);
  if (!build) throw new Error(`Sponge lists no ${step.releaseType} SpongeForge build`);
  ctx.log(message("daemon.step.spongeNeeds", { version: build.version, minecraft: build.dependencies.minecraft, forge: build.dependencies.forge }));
  const forge = `${build.dependencies.minecraft}-${build.dependencies.forge}`;
  await forgedl({ type: "forgedl", version: forge, filename: "forge-installer.jar" }, ctx);
  await downloadInto(build.artifacts[""].url, "mods", ctx);
}
