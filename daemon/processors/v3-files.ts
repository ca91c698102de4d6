// PufferPanel v3's extract and archive steps: the file manager's own jailed operations (the
// archive is unpacked through the jail with the node's extraction limits and charged against the
// disk space; a zip is written atomically), so a template can do nothing here a user could not.
import type { StepOf } from "../../core/definition/steps";
import { DEFAULT_EXTRACT_LIMITS, extractArchive } from "../files/extract";
import { createZip } from "../files/archive-create";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

/** PufferPanel writes "." or "./" for the server's folder itself. */
function folder(path: string): string {
  const trimmed = path.trim().replace(/^\.\/?$/, "");
  return trimmed.replace(/^\/+/, "");
}

export async function extract(step: StepOf<"extract">, ctx: StepContext): Promise<void> {
  ctx.log(message("daemon.step.extracting", { source: step.source }));
  await extractArchive(ctx.jail, step.source.replace(/^\/+/, ""), folder(step.destination), ctx.extractLimits ?? DEFAULT_EXTRACT_LIMITS);
}

export async function archive(step: StepOf<"archive">, ctx: StepContext): Promise<void> {
  const written = await createZip(ctx.jail, step.destination.replace(/^\/+/, ""), step.source.map((s) => folder(s) || "."));
  ctx.log(message("daemon.step.archived", { sources: step.source.join(", "), archive: written }));
}
