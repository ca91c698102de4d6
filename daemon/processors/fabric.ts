// The fabricdl step: the newest stable Fabric installer jar, from Fabric's metadata API.
import { z } from "../../core/zod";
import type { StepOf } from "../../core/definition/steps";
import { downloadIntoJail, fetchJson } from "./http";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

const installersSchema = z.array(z.object({ url: z.string(), version: z.string(), stable: z.boolean() }));

export async function fabricdl(step: StepOf<"fabricdl">, ctx: StepContext): Promise<void> {
  // A target that climbs out by its spelling is refused before anything is fetched.
  const target = ctx.jail.normalize(step.targetFile);
  const installers = await fetchJson(`${ctx.sources.fabric}/v2/versions/installer`, installersSchema, ctx);
  // The API lists the newest first.
  const installer = installers.find((i) => i.stable);
  if (!installer) throw new Error("Fabric lists no stable installer");
  ctx.log(message("daemon.step.downloadingFabricInstaller", { version: installer.version, url: installer.url }));
  await downloadIntoJail(installer.url, ctx.jail, target, ctx);
}
