// How a node hands a server's variables to the processes it starts. Values reach a command only
// as data: substituted into single words after the line is split (commandArgv), and exported as
// environment variables that scripts read ("$memory"), the way CI systems pass untrusted text to
// scripts instead of splicing it into them.
import { commandArgv, type ArgvOptions } from "./command-line";
import { substitute, substituteDeep, type Values } from "./substitute";
import type { RunSection } from "./template";

/**
 * Which variables are exported, by name: a shell-readable name (letters, digits, underscores, not
 * starting with a digit) that is not one of the variables the node, the dynamic loader, a shell
 * or a runtime act on. PufferPanel templates name variables in upper case too (Rust's
 * `RConPort`, `MaxPlayers`), so case alone does not decide; the deny-list below does, so a value
 * can never change how a program is found, loaded or run. Template authors choose names (an
 * administrator), users only values.
 */
export const EXPORTED_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Names never exported: how programs are found and run, what shells and loaders read at start. */
const DENIED_NAMES = new Set([
  "PATH", "HOME", "SHELL", "USER", "LOGNAME", "IFS", "ENV", "BASH_ENV", "CDPATH", "PS4", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS",
  "TMPDIR", "TERM", "GLIBC_TUNABLES", "GCONV_PATH", "LOCPATH", "NLSPATH", "HOSTALIASES", "RESOLV_HOST_CONF",
  "NODE_OPTIONS", "NODE_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB",
  "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "DOTNET_STARTUP_HOOKS", "SSL_CERT_FILE", "SSL_CERT_DIR",
  "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy",
]);
const DENIED_PREFIXES = ["LD_", "DYLD_", "BASH_FUNC_", "MALLOC_", "KILN_", "SUDO_", "LC_", "LANG"];

export function isExportedName(name: string): boolean {
  return EXPORTED_NAME.test(name) && !DENIED_NAMES.has(name) && !DENIED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * A shell-readable name on the deny-list above: what a node keeps away from every process it runs
 * itself, and hands to a server's own process only behind its wrappers (daemon/environment/carried-env).
 */
export function changesHowProgramsRun(name: string): boolean {
  return EXPORTED_NAME.test(name) && !isExportedName(name);
}

/**
 * Names on the deny-list that a server's own process gets under their own names all the same, as
 * Wings gives every egg variable to its container: the loader's library path and preload (eggs
 * point LD_LIBRARY_PATH at ./linux64 or ./libs, and their binaries exit 127 without it) and
 * gettext's language list. Inside its own container or sandbox the process belongs to the
 * server's user, so they reach nothing of the node; the node keeps them out of its own helpers
 * (install steps, task commands, the wrappers in front of the process).
 */
export const SERVER_ONLY_NAMES: ReadonlySet<string> = new Set(["LD_LIBRARY_PATH", "LD_PRELOAD", "LANGUAGE"]);

/** The variables (and rootDir, serverId) as environment variables of the same names: for install steps and tasks. */
export function variableEnvironment(values: Values): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (isExportedName(name)) env[name] = String(value);
  return env;
}

/** What the server's own process gets: variableEnvironment and the SERVER_ONLY_NAMES among the variables. */
export function serverEnvironment(values: Values): Record<string, string> {
  const env = variableEnvironment(values);
  for (const [name, value] of Object.entries(values)) if (SERVER_ONLY_NAMES.has(name)) env[name] = String(value);
  return env;
}

export interface Invocation {
  argv: string[];
  workingDirectory: string;
  env: Record<string, string>;
}

/**
 * The server's run command with its values: argv split then substituted word by word (a
 * `splitWords` variable standing alone as a word gives as many words as its value holds), the
 * working directory, and the environment (the exported variables and the server-only ones, then
 * the template's environmentVars, which win: the template named them on purpose).
 */
export function runInvocation(run: Pick<RunSection, "workingDirectory" | "environmentVars"> & { command: string }, values: Values, argv: ArgvOptions = {}): Invocation {
  return {
    argv: commandArgv(run.command, values, argv),
    workingDirectory: substitute(run.workingDirectory, values),
    env: { ...serverEnvironment(values), ...substituteDeep(run.environmentVars, values) },
  };
}
