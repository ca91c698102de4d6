// The variables that change how a program is found, loaded or run (LD_LIBRARY_PATH, LD_PRELOAD,
// PATH, LANGUAGE, …; core/definition/invocation's deny-list) reach a server's own process, never
// the processes Kiln puts in front of it, which run with the server's folder as their working
// directory: a library the server's user wrote there and a loader variable pointing at it would
// run as them. Where the node drops to the server's user, the sandbox gives the command its
// environment only after the drop (./sandbox dropToUser). A node that does not run as root has no
// drop: bubblewrap starts with the command's environment, as the node's user, outside the
// sandbox it is about to build. There such a variable travels under a name no loader reads
// (KILN_CARRY_<name>) and the last step before the command, a shell inside the sandbox, gives it
// back its own name and execs the command: the command's environment is exactly the one it asked
// for, and nothing before it saw the variable.
import { changesHowProgramsRun } from "../../core/definition/invocation";

const CARRIER = "KILN_CARRY_";

export interface Carried {
  argv: string[];
  /** What the processes in front of the command get: `base`'s value of each carried name, if any. */
  env: Record<string, string>;
}

/**
 * `argv` and `env` as spawned behind Kiln's own wrappers. `base` is what a server process gets
 * whatever its template says (PATH, HOME, LANG): a variable holding just that is not carried.
 */
export function carryPastWrappers(argv: string[], env: Record<string, string>, base: Record<string, string>): Carried {
  const carried = Object.keys(env).filter((name) => changesHowProgramsRun(name) && env[name] !== base[name]);
  if (carried.length === 0) return { argv, env };
  const outer: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!carried.includes(name)) outer[name] = value;
    else if (name in base) outer[name] = base[name]!;
  }
  for (const name of carried) outer[CARRIER + name] = env[name]!;
  // Names are shell identifiers (changesHowProgramsRun says so): the script holds no value, only them.
  const script = [...carried.map((name) => `${name}="$${CARRIER}${name}"; export ${name}; unset ${CARRIER}${name}`), 'exec "$@"'].join("; ");
  return { argv: ["/bin/sh", "-c", script, "kiln-env", ...argv], env: outer };
}
