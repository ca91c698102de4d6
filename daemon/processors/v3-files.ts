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
  const source = step.source.replace(/^\/+/, "");
  // In a task, as in the file manager: a denied archive is not read, no entry lands on a denied name.
  const { denylist, jail } = ctx;
  denylist?.check(jail, source);
  await extractArchive(jail, source, folder(step.destination), ctx.extractLimits ?? DEFAULT_EXTRACT_LIMITS, denylist && ((target) => denylist.check(jail, target)));
}

export async function archive(step: StepOf<"archive">, ctx: StepContext): Promise<void> {
  const destination = step.destination.replace(/^\/+/, "");
  // In a task, as in the file manager: the zip is not written on a denied name, and leaves denied files out.
  const { denylist, jail } = ctx;
  denylist?.check(jail, destination);
  const written = await createZip(jail, destination, step.source.map((s) => folder(s) || "."), denylist && ((path) => denylist.blocks(jail, path)), ctx.extractLimits ?? DEFAULT_EXTRACT_LIMITS);
  ctx.log(message("daemon.step.archived", { sources: step.source.join(", "), archive: written }));
}
