// PufferPanel v3's spongedl step: SpongeVanilla (saved as server.jar) or SpongeForge (the Forge
// installer it was built for as forge-installer.jar, and the mod as mods/_aspongeforge.jar, as v3
// names it), from Sponge's v2 download API. Without a spongeVersion, the newest build (for
// minecraftVersion when given; recommended builds only when asked) is taken.
import { z } from "../../core/zod";
import type { StepOf } from "../../core/definition/steps";
import { downloadIntoJail, fetchJson } from "./http";
import { forgedl } from "./forge";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

const versionsSchema = z.object({ artifacts: z.record(z.string(), z.unknown()) });
const versionSchema = z.object({
  assets: z.array(z.object({ classifier: z.string(), downloadUrl: z.string(), extension: z.string() })),
  tags: z._default(z.record(z.string(), z.string()), {}),
});

const TYPES = ["spongevanilla", "spongeforge"];

export async function spongedl(step: StepOf<"spongedl">, ctx: StepContext): Promise<void> {
  const type = step.spongeType.toLowerCase();
  if (!TYPES.includes(type)) throw new Error(`spongeType must be spongevanilla or spongeforge, not "${step.spongeType}"`);
  const base = `${ctx.sources.sponge}/v2/groups/org.spongepowered/artifacts/${type}/versions`;
  let version = step.spongeVersion;
  if (!version) {
    const query = new URLSearchParams({ limit: "1" });
    if (step.minecraftVersion) query.set("tags", `minecraft:${step.minecraftVersion}`);
    if (step.recommended) query.set("recommended", "true");
    const { artifacts } = await fetchJson(`${base}?${query}`, versionsSchema, ctx);
    version = Object.keys(artifacts)[0] ?? "";
    if (!version) throw new Error(`Sponge lists no ${type} build${step.minecraftVersion ? ` for Minecraft ${step.minecraftVersion}` : ""}`);
  }
  const build = await fetchJson(`${base}/${encodeURIComponent(version)}`, versionSchema, ctx);
  // SpongeVanilla's server jar has no classifier; SpongeForge's mod is the "universal" one.
  const classifier = type === "spongevanilla" ? "" : "universal";
  const asset = build.assets.find((a) => a.classifier === classifier && a.extension === "jar");
  if (!asset) throw new Error(`Sponge ${type} ${version} has no jar to download`);
  ctx.log(message("daemon.step.downloadingFrom", { what: type, version, url: asset.downloadUrl }));
  if (type === "spongevanilla") return downloadIntoJail(asset.downloadUrl, ctx.jail, "server.jar", ctx);
  await forgedl({ type: "forgedl", version: "", minecraftVersion: build.tags.minecraft ?? "", target: "forge-installer.jar" }, ctx);
  await downloadIntoJail(asset.downloadUrl, ctx.jail, "mods/_aspongeforge.jar", ctx);
}
