// What a start runs, worked out before anything is spawned, and what a stop sends. The start: the
// command the definition chooses (its conditions read the server's variables and folder),
// substituted into argv after the line is split (or an egg's STARTUP), its environment variables
// and working directory; the network console (telnet, RCON) that takes console lines instead of
// the process's input; the ports the server's own network publishes. Nothing here spawns, opens or
// publishes anything: Server acts on the plan, so a refused value stops the start before it began.
import { KilnError } from "../../core/errors";
import { runInvocation, substitute, type RunSection, type ServerDefinition, type Values } from "../../core/definition";
import { chooseRunCommand } from "../../core/definition/run-command";
import { evaluateCondition } from "../../core/definition/conditions";
import { consoleAddress, type ConsoleAddress } from "../../core/definition/console-address";
import type { ConsoleType } from "../../core/definition/constants";
import { eggInvocation } from "../../core/definition/egg-runtime";
import { eggFacts } from "../../core/definition/egg-facts";
import { splitWordNames } from "../../core/definition/word-split";
import { serverPorts, type ServerPorts } from "../../core/definition/server-ports";
import { conditionFacts } from "../processors/condition-facts";
import type { StepContext } from "../processors/types";
import type { Jail } from "../files/jail";

export interface LaunchInput {
  definition: ServerDefinition;
  /** The server's values, checked against their variables (a start refuses a value that would break the command). */
  values: Values;
  serverId: string;
  /** The server's folder, which a run command's condition may read (fileExists). */
  jail: Jail;
}

export interface LaunchPlan {
  argv: string[];
  /** Relative to the server's folder. */
  workingDirectory: string;
  env: Record<string, string>;
  /** The network console that takes the server's console lines; null: the process's own input. */
  console: { type: Exclude<ConsoleType, "stdin">; address: ConsoleAddress } | null;
  /** The ports the server's variables name, published where the server has a network of its own. */
  ports: ServerPorts;
}

/**
 * The start the definition asks for with these values. ErrFieldRequired (naming the command's
 * field) when no command applies or it has no words; an egg's command may be empty of words, as
 * its image's entrypoint runs STARTUP. A bad console address is refused with its field.
 */
export function launchPlan({ definition, values, serverId, jail }: LaunchInput): LaunchPlan {
  const run = definition.run;
  const facts = conditionFacts(values, { jail, environmentType: definition.environment.type, serverId } as StepContext);
  const chosen = chooseRunCommand(run, (condition) => evaluateCondition(condition, facts));
  if (chosen.command.trim() === "") throw new KilnError("ErrFieldRequired", { field: chosen.field });
  const environment = definition.environment;
  const egg = environment.type === "docker" && environment.conventions === "egg";
  const { argv, workingDirectory, env } = egg
    ? eggInvocation({ ...run, command: chosen.command }, values, eggFacts(values, definition.limits, serverId))
    : runInvocation({ ...run, command: chosen.command }, values, { split: splitWordNames(definition), field: chosen.field });
  if (argv.length === 0 && !egg) throw new KilnError("ErrFieldRequired", { field: chosen.field });
  // The console of a v3 command entry is named by that entry's field (run.command.2.stdin).
  const consoleField = chosen.field === "run.command" ? "run.stdin" : chosen.field.replace(/command$/, "stdin");
  const console = chosen.stdin.type === "stdin" ? null : { type: chosen.stdin.type, address: consoleAddress(chosen.stdin, definition, values, consoleField) };
  const extra = definition.extraPorts ?? [];
  // Allocations no variable carries reach the process by name too (a plugin may listen on one).
  const withExtra = extra.length > 0 ? { ...env, KILN_EXTRA_PORTS: extra.join(",") } : env;
  return { argv, workingDirectory, env: withExtra, console, ports: serverPorts(values, extra) };
}

/**
 * A network console on the server's own loopback: where the server has a network of its own, the
 * node reaches that loopback only through the server's address, which the ruleset leads there.
 */
export function consoleOnLoopback(address: ConsoleAddress | null): address is ConsoleAddress {
  return address !== null && address.host.startsWith("127.");
}

/** The console as the node reaches it through the server's address, still named by its template's. */
export function throughServerAddress(address: ConsoleAddress, serverAddress: string): ConsoleAddress & { shownAs: string } {
  return { ...address, host: serverAddress, shownAs: `${address.host}:${address.port}` };
}

/**
 * How a stop asks the process to end: the template's stop signal (stopCode) when it names one,
 * else its stop command with the values substituted, else SIGTERM. A stop command that cannot be
 * sent (a network console not connected) falls back to SIGTERM too (Server.sendStop).
 */
export type StopPlan = { signal: number | "SIGTERM" } | { command: string };

export function stopPlan(run: Pick<RunSection, "stop" | "stopCode">, values: Values): StopPlan {
  if (run.stopCode) return { signal: run.stopCode };
  return run.stop ? { command: substitute(run.stop, values) } : { signal: "SIGTERM" };
}
