// The facts a step's or a run command's condition reads, apart from the step runners: a start
// needs them every time (daemon/servers/launch-plan.ts), the runners (downloads, archives,
// config-file formats) only when a step runs, so they load then (daemon/servers/step-runner.ts).
import type { Values } from "../../core/definition/substitute";
import { goArch, goOs, type ConditionFacts } from "../../core/definition/conditions";
import { jailFileExists } from "./file-exists";
import type { StepContext } from "./types";

/** The facts a step's condition reads (./conditions), the folder answered through the jail. */
export function conditionFacts(values: Values, ctx: StepContext, success?: boolean): ConditionFacts {
  return {
    env: ctx.environmentType ?? "",
    os: goOs(),
    arch: goArch(),
    serverId: ctx.serverId ?? "",
    success,
    values,
    fileExists: (path) => jailFileExists(ctx.jail, path),
    inPath: (name) => /^[A-Za-z0-9_.+-]+$/.test(name) && Bun.which(name) !== null,
  };
}
