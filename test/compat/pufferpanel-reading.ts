// What PufferPanel does with a template, computed here from the raw JSON by PufferPanel's own
// rules (read from its Go source: pufferpanel.Variable's UnmarshalJSON, the 2.x loader's legacy
// run, v3's OperationProcess and Server.Start with ReplaceTokens and SplitArguments, 1.x's
// per-argument ReplaceTokensInArr), independently of Kiln's converters. The compatibility harness
// compares it with what Kiln stored after importing the same file through the panel: the
// variables and their flags, which install steps run for a host and for a docker environment, and
// the argument vector a server starts with, its variables' default values substituted.
import { evaluateCondition, type ConditionFacts } from "../../core/definition/conditions";
import { chooseRunCommand } from "../../core/definition/run-command";
import { commandArgv, splitCommandLine } from "../../core/definition/command-line";
import { substitute } from "../../core/definition/substitute";
import { splitWordNames } from "../../core/definition/word-split";
import type { Template } from "../../core/definition";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export type Branch = "v3" | "v2.6" | "v2" | "v1";
export const BRANCHES: readonly Branch[] = ["v3", "v2.6", "v2", "v1"];
/** The environments a server can run in; PufferPanel 2.x's standard and tty are v3's host. */
export const ENVIRONMENTS = ["host", "docker"] as const;

export interface VariableReading {
  type: string;
  value: string | number | boolean;
  /** whether the creation form insists on a value (PufferPanel skips internal variables) */
  required: boolean;
  /** whether a user without admin rights may set it (internal variables are not shown at all) */
  userEdit: boolean;
}

export interface Reading {
  variables: Record<string, VariableReading>;
  /** per environment: the install steps that run, each as its fields without `if` (or "error: …") */
  install: Record<(typeof ENVIRONMENTS)[number], unknown[] | string>;
  /** per environment: the argument vector the server starts with, default values substituted (or "error: …") */
  command: Record<(typeof ENVIRONMENTS)[number], string[] | string>;
  /** the environment types offered, host-like ones named host */
  environments: string[];
}

/** Go's strconv.ParseBool, as spf13/cast reads a text. */
function goBool(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  const v = String(value);
  if (["1", "t", "T", "true", "TRUE", "True"].includes(v)) return true;
  if (["0", "f", "F", "false", "FALSE", "False", ""].includes(v)) return false;
  return undefined;
}

/** A variable's value as PufferPanel uses it: typed where the type says so and the text reads as one. */
function typedValue(type: string, value: unknown, branch: Branch): { type: string; value: string | number | boolean } {
  const raw = value === null || value === undefined ? "" : (value as string | number | boolean);
  if (type === "integer") {
    if (typeof raw === "number") return { type, value: raw };
    const text = String(raw).trim();
    if (/^[+-]?\d+$/.test(text)) return { type, value: Number(text) };
    if (text === "") return { type, value: branch === "v3" ? 0 : "" };
    // Not a number: v3 refuses to load such a template, 2.x shows the text in a text field.
    return { type: "string", value: String(raw) };
  }
  if (type === "boolean") {
    const b = goBool(raw);
    return b === undefined ? { type: "string", value: String(raw) } : { type, value: b };
  }
  return { type, value: typeof raw === "object" ? JSON.stringify(raw) : raw };
}

function readVariables(data: unknown, branch: Branch): Record<string, VariableReading> {
  const out: Record<string, VariableReading> = {};
  for (const [name, v] of Object.entries(isObject(data) ? data : {})) {
    if (!isObject(v)) continue;
    const internal = v.internal === true || v.internal === "true";
    const typed = typedValue(typeof v.type === "string" && v.type ? v.type : "string", v.value, branch);
    out[name] = {
      ...typed,
      // Go's zero value for a missing bool; an internal variable is neither asked for nor shown.
      required: v.required === true && !internal,
      // 1.x had no userEdit: every variable that is not internal is the user's.
      userEdit: branch === "v1" ? !internal : v.userEdit === true && !internal,
    };
  }
  return out;
}

const facts = (env: string, values: ConditionFacts["values"], success?: boolean): ConditionFacts => ({
  env,
  os: "linux",
  arch: "amd64",
  serverId: "compat",
  success,
  values,
  fileExists: () => false,
});

function holds(condition: unknown, f: ConditionFacts): boolean {
  return evaluateCondition(typeof condition === "string" ? condition : "", f);
}

/**
 * A step's fields without its condition, lists written as lists (PufferPanel reads a lone text as
 * one), command lines as the words they run (quoting may be written differently).
 */
function stepFields(step: Json): Json {
  const { if: _condition, ...rest } = step;
  for (const key of ["files", "commands"]) if (typeof rest[key] === "string") rest[key] = [rest[key]];
  if (rest.type === "command" && Array.isArray(rest.commands)) rest.commands = rest.commands.map((line) => (typeof line === "string" ? words(line) : line));
  return rest;
}

function words(line: string): string[] | string {
  try {
    return splitCommandLine(line);
  } catch {
    return line;
  }
}

function runs(steps: unknown, env: string, values: ConditionFacts["values"]): unknown[] | string {
  try {
    // OperationProcess: `success` is known (true while every step succeeds), so an empty `if` holds.
    return (Array.isArray(steps) ? steps : []).filter((s): s is Json => isObject(s) && holds(s.if, facts(env, values, true))).map(stepFields);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** What the node fills in beside the variables (PufferPanel's DataToMap adds the same two). */
const BUILTINS = { rootDir: "/srv/compat", serverId: "compat" };

/**
 * Values PufferPanel splits into several arguments although they mean one: its SplitArguments runs
 * after the values are in the line, so a name with a space becomes two arguments and the game
 * reads the first. Kiln keeps such a value one argument (only a variable marked splitWords splits);
 * each name here is compared as one argument, with the reason.
 */
const MEANS_ONE_ARGUMENT: Record<string, string> = {
  name: "Valheim's -name: the server's name (\"Valheim Server\")",
  servername: "The Forest's -servername (\"The Forest\")",
  sessionname: "ARK's SessionName inside its map URL (\"My ARK Server\")",
};

/**
 * pufferpanel.SplitArguments (arguments.go, 2.x and v3): a backslash takes the next character as
 * it is; a double quote opens or closes a stretch where spaces do not split; only a space splits;
 * empty words are dropped. PufferPanel keeps the double quotes in the argument it passes
 * (`+server.level "Procedural Map"` reaches the game with its quotes); Kiln passes the words as a
 * shell would, without them, and they are compared so: a stretch's quotes are left out here.
 */
function pufferPanelSplit(line: string): string[] {
  const words = [""];
  let skip = false;
  let inQuote = false;
  for (const ch of line) {
    if (skip) {
      skip = false;
      words[words.length - 1] += ch;
    } else if (ch === "\\") skip = true;
    else if (ch === '"') inQuote = !inQuote;
    else if (ch === " " && !inQuote) words.push("");
    else words[words.length - 1] += ch;
  }
  return words.filter((w) => w !== "");
}

/** PufferPanel's ReplaceTokens then SplitArguments: the words the process gets. */
function pufferPanelArgv(line: string, values: ConditionFacts["values"]): string[] {
  const all: Record<string, string | number | boolean> = { ...values, ...BUILTINS };
  // The values that mean one argument stand in the line as one token until the line is split.
  const kept: string[] = [];
  let text = line;
  for (const [name, value] of Object.entries(all)) {
    const token = name in MEANS_ONE_ARGUMENT ? `\u0000${kept.push(String(value)) - 1}\u0000` : String(value);
    text = text.replaceAll(`\${${name}}`, token);
  }
  return pufferPanelSplit(text).map((word) => word.replace(/\u0000(\d+)\u0000/g, (_t, i: string) => kept[Number(i)]!));
}

/** Server.Start: the first entry whose `if` holds, else the first without one; a text is the command. */
function startCommand(run: Json, env: string, values: ConditionFacts["values"]): string[] | string {
  const command = run.command;
  try {
    if (typeof command === "string") return pufferPanelArgv(command, values);
    const entries = (Array.isArray(command) ? command : []).filter(isObject);
    const chosen = entries.find((e) => typeof e.if === "string" && e.if !== "" && holds(e.if, facts(env, values))) ?? entries.find((e) => !e.if);
    return pufferPanelArgv(typeof chosen?.command === "string" ? chosen.command : "", values);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** PufferPanel 1.x: program and arguments as a list, each argument substituted on its own (ReplaceTokensInArr). */
function perArgument(words: string[], values: ConditionFacts["values"]): string[] {
  const all = { ...values, ...BUILTINS };
  return words.map((word) => substitute(word.replaceAll("${rootdir}", "${rootDir}"), all));
}

const hostLike = (type: unknown) => (type === "standard" || type === "tty" ? "host" : String(type));

/** PufferPanel's reading of a raw template file of `branch`. */
export function pufferPanelReading(file: unknown, branch: Branch): Reading {
  let t = isObject(file) ? file : {};
  if (branch === "v1" && isObject(t.pufferd)) t = t.pufferd;
  const variables = readVariables(t.data, branch);
  const values = Object.fromEntries(Object.entries(variables).map(([name, v]) => [name, v.value]));
  const run = isObject(t.run) ? { ...t.run } : {};
  let install = t.install;
  if (branch === "v1" || branch === "v2") {
    // The 1.x layout (install.commands, program + arguments) as PufferPanel 2's loader reads it.
    if (isObject(install)) install = install.commands;
    if (typeof run.program === "string" && run.program !== "") {
      const args = Array.isArray(run.arguments) ? run.arguments.map(String) : [];
      run.command = branch === "v1" ? [run.program, ...args] : `${run.program} ${args.join(" ")}`.trim();
    }
  }
  // No environment at all: 1.x ran such a template in its standard environment (2.x could not
  // start it), as Kiln does.
  const rawEnvironments = Array.isArray(t.supportedEnvironments) && t.supportedEnvironments.length ? t.supportedEnvironments : [t.environment ?? { type: "standard" }];
  const listed = Array.isArray(run.command) && run.command.every((w) => typeof w === "string") ? perArgument(run.command as string[], values) : undefined;
  const reading: Reading = {
    variables,
    install: { host: runs(install, "host", values), docker: runs(install, "docker", values) },
    command: { host: listed ?? startCommand(run, "host", values), docker: listed ?? startCommand(run, "docker", values) },
    environments: rawEnvironments.filter(isObject).map((e) => hostLike(e.type)),
  };
  return branch === "v1" ? (JSON.parse(JSON.stringify(reading).replaceAll("${rootdir}", "${rootDir}")) as Reading) : reading;
}

/**
 * Kiln's import rewrites `${name}` inside shell scripts into reads of the exported variable
 * (`$name`, `$name""`, `'"$name"'`: core/definition/script-rewrite); written back here so the
 * comparison sees the script PufferPanel's file wrote. (That the rewritten script prints the same
 * is shown by running it: templates-fixtures.test.ts.)
 */
function asWritten(text: string, names: readonly string[]): string {
  let out = text;
  for (const name of [...names].sort((a, b) => b.length - a.length)) {
    out = out.replaceAll(`'"$${name}"'`, `\${${name}}`).replaceAll(`$${name}""`, `\${${name}}`);
    out = out.replace(new RegExp(`\\$${name}(?![A-Za-z0-9_])`, "g"), `\${${name}}`);
  }
  return out;
}

function withScriptsAsWritten(t: Template): Template {
  const names = [...Object.keys(t.data), "rootDir", "serverId"];
  const line = (text: string) => asWritten(text, names);
  const steps = (list: Template["install"]) => list.map((s) => (s.type === "command" ? { ...s, commands: s.commands.map(line) } : s));
  const command = typeof t.run.command === "string" ? line(t.run.command) : t.run.command.map((e) => ({ ...e, command: line(e.command) }));
  return { ...t, install: steps(t.install), run: { ...t.run, command, pre: steps(t.run.pre), post: steps(t.run.post) } };
}

/**
 * The same facts read from the template Kiln stored, with Kiln's own code: the runtime's choice of
 * command and the node's argument vector (commandArgv, with the template's splitWords). A shell
 * script in it reads the variables from its environment; written back as the file wrote it and
 * substituted as PufferPanel substitutes, it compares with PufferPanel's (that the two print the
 * same is shown by running them: templates-fixtures.test.ts).
 */
export function kilnReading(stored: Template): Reading {
  const t = withScriptsAsWritten(stored);
  const variables = Object.fromEntries(
    Object.entries(t.data).map(([name, v]) => [name, { type: v.type, value: v.value, required: v.required, userEdit: v.userEdit }]),
  );
  const values = Object.fromEntries(Object.entries(t.data).map(([name, v]) => [name, v.value]));
  const all = { ...values, ...BUILTINS };
  const command = (env: string) => {
    try {
      const chosen = chooseRunCommand(t.run, (condition) => holds(condition, facts(env, values)));
      return commandArgv(chosen.command, all, { split: splitWordNames(t) }).map((word) => substitute(word, all));
    } catch (error) {
      return `error: ${(error as Error).message}`;
    }
  };
  return {
    variables,
    install: { host: runs(t.install, "host", values), docker: runs(t.install, "docker", values) },
    command: { host: command("host"), docker: command("docker") },
    environments: (t.supportedEnvironments.length ? t.supportedEnvironments : [t.environment]).map((e) => hostLike(e.type)),
  };
}

/**
 * Where Kiln's reading differs from PufferPanel's, as readable lines ("data.memory.userEdit:
 * PufferPanel false, Kiln true"). A step may carry fields Kiln's schema fills with defaults; only
 * the fields PufferPanel's file wrote are compared (under Kiln's name where 1.x's differs).
 */
export function differences(expected: Reading, actual: Reading): string[] {
  const out: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  // PufferPanel reads a step's ids and versions written either way ("17" or 17).
  const sameField = (a: unknown, b: unknown) => same(a, b) || (["string", "number"].includes(typeof a) && ["string", "number"].includes(typeof b) && String(a) === String(b));
  for (const [name, v] of Object.entries(expected.variables)) {
    const k = actual.variables[name];
    if (!k) {
      out.push(`data.${name}: missing`);
      continue;
    }
    for (const key of ["type", "value", "required", "userEdit"] as const) {
      if (!same(v[key], k[key])) out.push(`data.${name}.${key}: PufferPanel ${JSON.stringify(v[key])}, Kiln ${JSON.stringify(k[key])}`);
    }
  }
  for (const env of ENVIRONMENTS) {
    const e = expected.install[env];
    const k = actual.install[env];
    if (typeof e === "string" || typeof k === "string") {
      if (!same(e, k)) out.push(`install (${env}): PufferPanel ${JSON.stringify(e)}, Kiln ${JSON.stringify(k)}`);
    } else if (e.length !== k.length) {
      out.push(`install (${env}): PufferPanel runs ${e.length} steps (${e.map((s) => (s as Json).type).join(", ")}), Kiln ${k.length} (${k.map((s) => (s as Json).type).join(", ")})`);
    } else {
      e.forEach((step, i) => {
        const ks = k[i] as Json;
        for (const [key, value] of Object.entries(step as Json)) {
          const kiln = key === "target" && ks.type === "forgedl" && !("target" in ks) ? ks.filename : ks[key];
          if (!sameField(value, kiln)) out.push(`install.${i}.${key} (${env}): PufferPanel ${JSON.stringify(value)}, Kiln ${JSON.stringify(kiln)}`);
        }
      });
    }
    if (!same(expected.command[env], actual.command[env])) out.push(`run command (${env}): PufferPanel ${JSON.stringify(expected.command[env])}, Kiln ${JSON.stringify(actual.command[env])}`);
  }
  if (!same(expected.environments, actual.environments)) out.push(`environments: PufferPanel ${expected.environments.join(", ")}, Kiln ${actual.environments.join(", ")}`);
  return out;
}
