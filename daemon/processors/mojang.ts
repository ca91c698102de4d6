// The mojangdl step: a vanilla Minecraft server jar from Mojang's launcher metadata. The
// version is an id ("1.20.1") or "latest"/"release" (the newest release) or "snapshot".
import { z } from "../../core/zod";
import type { StepOf } from "../../core/definition/steps";
import { downloadIntoJail, fetchJson } from "./http";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

const manifestSchema = z.object({
  latest: z.object({ release: z.string(), snapshot: z.string() }),
  versions: z.array(z.object({ id: z.string(), url: z.string() })),
});

const versionSchema = z.object({
  downloads: z.object({ server: z.optional(z.object({ url: z.string(), sha1: z.optional(z.string()) })) }),
});

export async function mojangdl(step: StepOf<"mojangdl">, ctx: StepContext): Promise<void> {
  // A target that climbs out by its spelling is refused before anything is fetched.
  const target = ctx.jail.normalize(step.target);
  const manifest = await fetchJson(`${ctx.sources.mojang}/mc/game/version_manifest.json`, manifestSchema, ctx);
  const id = step.version === "latest" || step.version === "release" ? manifest.latest.release
    : step.version === "snapshot" ? manifest.latest.snapshot
    : step.version;
  const entry = manifest.versions.find((v) => v.id === id);
  if (!entry) throw new Error(`Minecraft version ${id} is not in Mojang's version list`);
  const server = (await fetchJson(entry.url, versionSchema, ctx)).downloads.server;
  if (!server) throw new Error(`Minecraft ${id} has no server download`);
  ctx.log(message("daemon.step.downloadingMinecraft", { version: id, url: server.url }));
  await downloadIntoJail(server.url, ctx.jail, target, ctx, server.sha1);
}
