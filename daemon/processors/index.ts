// Runs install, pre/post-run and task steps (spec: Step types) against a server's folder. The
// first failing step stops the sequence, is logged on the console, and surfaces as
// ErrStepFailed with the step's type and the reason.
import type { Step, StepOf, StepType } from "../../core/definition/steps";
import type { Values } from "../../core/definition/substitute";
import { substituteStep } from "../../core/definition/substitute-step";
import { variableEnvironment } from "../../core/definition/invocation";
import { KilnError } from "../../core/errors";
import { publicReason } from "../http/errors";
import { command } from "./command";
import { download } from "./download";
import { fabricdl } from "./fabric";
import { alterfile, mkdir, move, writefile } from "./files";
import { forgedl, spongeforgedl } from "./forge";
import { javadl } from "./java";
import { mojangdl } from "./mojang";
import { steamgamedl } from "./steam";
import type { StepContext } from "./types";

export type { StepContext } from "./types";

const PROCESSORS: { [T in StepType]: (step: StepOf<T>, ctx: StepContext) => Promise<void> } = {
  download, command, alterfile, writefile, move, mkdir,
  mojangdl, forgedl, spongeforgedl, fabricdl, javadl, steamgamedl,
};

/** Runs one step as it is (no substitution); throws the step's own error. */
export function runStep(step: Step, ctx: StepContext): Promise<void> {
  const run = PROCESSORS[step.type] as (step: Step, ctx: StepContext) => Promise<void>;
  return run(step, ctx);
}

/**
 * Substitutes `values` into one step (substituteStep: a value stays data) and runs it; the
 * commands it runs see the variables as environment variables (variableEnvironment).
 */
export async function runStepWithValues(step: Step, values: Values, ctx: StepContext): Promise<void> {
  const env = variableEnvironment(values);
  const withEnv: StepContext = { ...ctx, execute: (argv, options = {}) => ctx.execute(argv, { ...options, env: { ...env, ...options.env } }) };
  return runStep(substituteStep(step, values), withEnv);
}

/** Substitutes `values` into each step and runs them in order; throws ErrStepFailed at the first failure. */
export async function runSteps(steps: Step[], values: Values, ctx: StepContext): Promise<void> {
  for (const [i, template] of steps.entries()) {
    const label = `step ${i + 1}/${steps.length}`;
    if (ctx.signal?.aborted) {
      ctx.log(`${label} (${template.type}) not run: cancelled`);
      throw failed(template.type, "cancelled");
    }
    ctx.log(`${label}: ${template.type}`);
    try {
      await runStepWithValues(template, values, ctx);
    } catch (e) {
      // A KilnError from a step (the jail's ErrNoPermission) keeps its text as the reason.
      const reason = publicReason(e);
      ctx.log(`${label} (${template.type}) failed: ${reason}`);
      throw failed(template.type, reason);
    }
  }
}

function failed(step: StepType, reason: string): KilnError {
  return new KilnError("ErrStepFailed", { step, reason }, `the ${step} step failed: ${reason}`);
}
