// How a server with the docker environment's "egg" conventions is started: the egg runtime
// images run their own entrypoint, which reads the run command from STARTUP and expands its
// ${VAR} (and {{VAR}}) references from the environment. So Kiln passes the command as the
// template wrote it, {{VAR}} turned into ${VAR}, and never substitutes a value into it: the
// image's shell evaluates STARTUP, and a value put into its text could be code there. Values
// reach the process as environment variables only, beside TZ and the SERVER_ values.
import { eggEnvironment, type EggFacts } from "./egg-facts";
import { substitute, substituteDeep, type Values } from "./substitute";
import { serverEnvironment, type Invocation } from "./invocation";
import type { RunSection } from "./template";

/** The egg's startup line as the images read it: {{VAR}} as ${VAR}. */
export function eggStartup(command: string): string {
  return command.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, "${$1}");
}

/** No argv (the image's own entrypoint and cmd run); STARTUP and the egg environment. */
export function eggInvocation(run: Pick<RunSection, "workingDirectory" | "environmentVars"> & { command: string }, values: Values, facts: EggFacts): Invocation {
  return {
    argv: [],
    workingDirectory: substitute(run.workingDirectory, values),
    env: { ...serverEnvironment(values), ...substituteDeep(run.environmentVars, values), STARTUP: eggStartup(run.command.trim()), ...eggEnvironment(facts) },
  };
}
