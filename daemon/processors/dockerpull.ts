// PufferPanel v3's dockerpull step: pulls an image through the Docker Engine. As PufferPanel's,
// it always pulls (a newer image under the same tag replaces the node's copy), and only a docker
// server has an engine to pull into: anywhere else the step fails, as PufferPanel's fails with
// ErrEnvironmentNotSupported. The image is the template's: its `${variables}` are substituted
// under the environment image's rules (core/definition/docker-values: a value users may edit
// picks only the tag), so a user cannot make the node fetch an image of their choosing.
import type Dockerode from "dockerode";
import type { StepOf } from "../../core/definition/steps";
import type { ServerDefinition } from "../../core/definition";
import type { Values } from "../../core/definition/substitute";
import { dockerImage } from "../../core/definition/docker-values";
import { messageOf, pullWithProgress } from "../environment/docker-engine";
import type { StepContext } from "./types";
import { message, verbatim, type DaemonMessage } from "../../core/live/daemon-message";

export async function dockerpull(step: StepOf<"dockerpull">, ctx: StepContext): Promise<void> {
  if (!ctx.pullImage) throw new Error(`dockerpull needs a docker environment; this server's environment is ${ctx.environmentType || "not docker"}`);
  await ctx.pullImage(step.imageName);
}

/** A docker server's pullImage (StepContext): the image as written, substituted and pulled, progress in `log`. */
export function imagePuller(docker: () => Dockerode, definition: Pick<ServerDefinition, "data">, values: () => Values, log: (line: DaemonMessage) => void): (image: string) => Promise<void> {
  const decoder = new TextDecoder();
  return async (written) => {
    const image = dockerImage(written, definition, values(), "imageName");
    log(message("daemon.step.pulling", { image }));
    try {
      await pullWithProgress(docker(), image, (chunk) => log(verbatim(decoder.decode(chunk).trimEnd())));
    } catch (error) {
      throw new Error(`image ${image} could not be pulled: ${messageOf(error)}`);
    }
  };
}
