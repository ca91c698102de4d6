// The download step: each URL is saved in the server's folder under the last segment of its
// path. Also used by steps that fetch a file into a sub-folder (SpongeForge into mods/).
import { posix } from "node:path";
import type { StepOf } from "../../core/definition/steps";
import { downloadIntoJail, fileNameFromUrl } from "./http";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

export async function download(step: StepOf<"download">, ctx: StepContext): Promise<void> {
  for (const url of step.files) await downloadInto(url, "", ctx);
}

/** Downloads `url` into `folder` (relative to the server's folder). */
export async function downloadInto(url: string, folder: string, ctx: StepContext): Promise<void> {
  const name = posix.join(folder, fileNameFromUrl(url));
  // The name from the URL is checked before anything is fetched.
  ctx.jail.normalize(name);
  ctx.log(message("daemon.step.downloading", { url }));
  await downloadIntoJail(url, ctx.jail, name, ctx);
}
