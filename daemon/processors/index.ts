// Runs install, pre/post-run and task steps (the step types, PufferPanel v3's operations included)
// against a server's folder. A step whose `if` condition does not hold is skipped (said on the
// console); the first failing step stops the sequence, is logged on the console, and surfaces as
// ErrStepFailed with the step's type and the reason. A step may set variables (v3's
// outputVariable): later steps, conditions and the run command see them.
import type { Step, StepOf, StepType } from "../../core/definition/steps";
import type { Values } from "../../core/definition/substitute";
import { substituteStep } from "../../core/definition/substitute-step";
import { variableEnvironment } from "../../core/definition/invocation";
import { evaluateCondition } from "../../core/definition/conditions";
import { KilnError } from "../../core/errors";
import { publicReason, reasonMessage } from "../http/errors";
import { message } from "../../core/live/daemon-message";
import { command } from "./command";
import { download } from "./download";
import { fabricdl } from "./fabric";
import { alterfile, mkdir, move, writefile } from "./files";
import { forgedl, spongeforgedl } from "./forge";
import { javadl } from "./java";
import { mojangdl } from "./mojang";
import { steamgamedl } from "./steam";
import { archive, extract } from "./v3-files";
import { consoleMessage, sleep } from "./pause";
import { neoforgedl, resolveforgeversion, resolveneoforgeversion } from "./forge-versions";
import { spongedl } from "./sponge";
import { curseforge } from "./curseforge";
import { dockerpull } from "./dockerpull";
import { configfile } from "./configfile";
import { containerscript } from "./containerscript";
import { conditionFacts } from "./condition-facts";
import type { StepContext, StepOutput } from "./types";

export type { StepContext, StepOutput } from "./types";
export { conditionFacts } from "./condition-facts";

const PROCESSORS: { [T in StepType]: (step: StepOf<T>, ctx: StepContext) => Promise<void | StepOutput> } = {
  download, command, alterfile, writefile, move, mkdir,
  mojangdl, forgedl, spongeforgedl, fabricdl, javadl, steamgamedl,
  extract, archive, sleep, console: consoleMessage, resolveforgeversion, resolveneoforgeversion, neoforgedl, spongedl, curseforge, dockerpull,
  configfile, containerscript,
};

/** Runs one step as it is (no substitution, no condition); throws the step's own error. */
export async function runStep(step: Step, ctx: StepContext): Promise<StepOutput> {
  const run = PROCESSORS[step.type] as (step: Step, ctx: StepContext) => Promise<void | StepOutput>;
  return (await run(step, ctx)) ?? {};
}

/**
 * Substitutes `values` into one step (substituteStep: a value stays data) and runs it; the
 * commands it runs see the variables as environment variables (variableEnvironment).
 */
export async function runStepWithValues(step: Step, values: Values, ctx: StepContext): Promise<StepOutput> {
  const env = variableEnvironment(values);
  const withEnv: StepContext = { ...ctx, values, execute: (argv, options = {}) => ctx.execute(argv, { ...options, env: { ...env, ...options.env } }) };
  return runStep(substituteStep(step, values, ctx.splitWords), withEnv);
}

export interface StepsOptions {
  /** Told of every variable a step set, so the server keeps it (its definition). */
  onVariables?(variables: Record<string, string>): void;
}

/**
 * Substitutes `values` into each step and runs those whose condition holds, in order; throws
 * ErrStepFailed at the first failure (a condition that cannot be evaluated is one).
 */
export async function runSteps(steps: Step[], values: Values, ctx: StepContext, options: StepsOptions = {}): Promise<void> {
  const current: Values = { ...values };
  let success = true;
  for (const [i, template] of steps.entries()) {
    const label = message("daemon.step.label", { number: i + 1, total: steps.length });
    if (ctx.signal?.aborted) {
      ctx.log(message("daemon.step.cancelled", { label, type: template.type }));
      throw failed(template.type, "cancelled");
    }
    try {
      if (!evaluateCondition(template.if, conditionFacts(current, ctx, success))) {
        ctx.log(template.if ? message("daemon.step.skippedCondition", { label, type: template.type, condition: template.if }) : message("daemon.step.skippedAfterFailure", { label, type: template.type }));
        continue;
      }
      ctx.log(message("daemon.step.running", { label, type: template.type }));
      const output = await runStepWithValues(template, current, ctx);
      success = true;
      if (output.variables && Object.keys(output.variables).length > 0) {
        Object.assign(current, output.variables);
        options.onVariables?.(output.variables);
      }
    } catch (e) {
      // A KilnError from a step (the jail's ErrNoPermission) keeps its text as the reason.
      const reason = publicReason(e);
      ctx.log(message("daemon.step.failed", { label, type: template.type, reason: reasonMessage(e) }));
      throw failed(template.type, reason);
    }
  }
}

function failed(step: StepType, reason: string): KilnError {
  return new KilnError("ErrStepFailed", { step, reason }, `the ${step} step failed: ${reason}`);
}
