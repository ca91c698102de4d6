// The containerscript step (an egg's scripts.installation, usable by any template): the script
// runs in a container of its own image (daemon/environment/script-container.ts draws its
// boundary), its output on the install console. The variables reach it as its environment,
// never in its text (substituteStep keeps the step as written), beside the egg runtime's TZ and
// SERVER_ values. A script that ends with any code but 0 fails the step.
import type { StepOf } from "../../core/definition/steps";
import { eggEnvironment, eggFacts } from "../../core/definition/egg-facts";
import { variableEnvironment } from "../../core/definition/invocation";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

export async function containerscript(step: StepOf<"containerscript">, ctx: StepContext): Promise<void> {
  if (!ctx.runScript) throw new Error("the containerscript step needs a Docker Engine on this node");
  const values = ctx.values ?? {};
  const facts = ctx.placeholders?.facts ?? eggFacts(values, undefined, ctx.serverId ?? "");
  const env = { ...variableEnvironment(values), ...eggEnvironment(facts) };
  ctx.log(message("daemon.step.containerScript", { entrypoint: step.entrypoint, image: step.image }));
  const code = await ctx.runScript({ image: step.image, entrypoint: step.entrypoint, script: step.script, env });
  if (ctx.signal?.aborted) throw new Error("cancelled");
  if (code !== 0) throw new Error(code === null ? "the Docker Engine lost the script's container" : `the script ended with code ${code}`);
}
