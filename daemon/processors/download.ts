// The download step: each URL is saved in the server's folder under the last segment of its
// path. Also used by steps that fetch a file into a sub-folder (SpongeForge into mods/).
import { join } from "node:path";
import type { StepOf } from "../../core/definition/steps";
import { downloadToFile, fileNameFromUrl } from "./http";
import type { StepContext } from "./types";

export async function download(step: StepOf<"download">, ctx: StepContext): Promise<void> {
  for (const url of step.files) await downloadInto(url, "", ctx);
}

/** Downloads `url` into `folder` (relative to the server's folder). */
export async function downloadInto(url: string, folder: string, ctx: StepContext): Promise<void> {
  const name = join(folder, fileNameFromUrl(url));
  const target = ctx.jail.resolve(name);
  ctx.log(`downloading ${url}`);
  await downloadToFile(url, target, ctx);
}
