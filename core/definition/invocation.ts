// How a node hands a server's variables to the processes it starts. Values reach a command only
// as data: substituted into single words after the line is split (commandArgv), and exported as
// environment variables that scripts read ("$memory"), the way CI systems pass untrusted text to
// scripts instead of splicing it into them.
import { commandArgv } from "./command-line";
import { substitute, substituteDeep, type Values } from "./substitute";
import type { RunSection } from "./template";

/**
 * Which variables are exported, by name: those starting with a lowercase letter, then letters,
 * digits and underscores. Such a name can be read by a shell, and cannot be one of the
 * variables the node, the dynamic loader or a shell act on (PATH, HOME, LD_PRELOAD, IFS,
 * BASH_ENV, …: those are upper case), so a value can never change how a program is found or run.
 */
export const EXPORTED_NAME = /^[a-z][A-Za-z0-9_]*$/;

/** The variables (and rootDir, serverId) as environment variables of the same names. */
export function variableEnvironment(values: Values): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (EXPORTED_NAME.test(name)) env[name] = String(value);
  return env;
}

export interface Invocation {
  argv: string[];
  workingDirectory: string;
  env: Record<string, string>;
}

/**
 * The server's run command with its values: argv split then substituted word by word, the
 * working directory, and the environment (the exported variables, then the template's
 * environmentVars, which win: the template named them on purpose).
 */
export function runInvocation(run: Pick<RunSection, "command" | "workingDirectory" | "environmentVars">, values: Values): Invocation {
  return {
    argv: commandArgv(run.command, values),
    workingDirectory: substitute(run.workingDirectory, values),
    env: { ...variableEnvironment(values), ...substituteDeep(run.environmentVars, values) },
  };
}
