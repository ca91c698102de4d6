// The `if` conditions of PufferPanel v3 templates (on steps, run.command entries and variable
// groups): expressions of Google's Common Expression Language, evaluated with a real CEL library
// (@marcbachmann/cel-js) as PufferPanel evaluates them with cel-go. Pure: the caller hands in
// the facts (the environment's type, the variables, and file_exists, which the node answers
// through the server's jail), so the panel, the node and the import harness agree on what runs.
//
// cel-js evaluates on the caller's thread with no budget, and a task step's condition is written
// by any user who may save tasks: eight nested `[0,…,9].all(x, …)` (250 characters) hold the
// node's event loop for seconds, nine for minutes, nested `.map` fill its memory. So before
// anything is evaluated its cost is bounded from the expression and the sizes of the values it
// reads (conditionCost): each value's size and each node's work, multiplied through every
// comprehension and cel.bind, must stay within MAX_CONDITION_COST. A template or a task is checked
// so when saved (conditionProblem), and again with the real values when it runs.
import type { Environment, EnvironmentOptions } from "@marcbachmann/cel-js";
import type { Values } from "./substitute";
import { costProblem, weightOf } from "./condition-cost";

/** Longest condition accepted: far above any real template's (the longest official one is ~170). */
export const MAX_CONDITION_LENGTH = 2000;
/** Parse-time caps, so a hostile expression costs little to refuse. */
const LIMITS = { maxAstNodes: 400, maxDepth: 32, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 };
/** The length a variable is taken to have where its value is not known yet (a template or a task being saved). */
const UNKNOWN_VALUE_SIZE = 256;

/** The facts a condition can read, named as PufferPanel names them. */
export interface ConditionFacts {
  /** The environment's type as the definition writes it: "host", "docker", "standard", "tty". */
  env: string;
  /** The node's OS and processor as Go names them ("linux", "windows"; "amd64", "arm64"). */
  os: string;
  arch: string;
  serverId: string;
  /** The previous step's outcome (steps only); an empty condition then means `success`. */
  success?: boolean;
  /** Every template variable with its typed value (integers become CEL ints). */
  values: Values;
  /** Whether a path exists in the server's folder; the node answers it through the jail. */
  fileExists(path: string): boolean;
  /** Whether a program is on the node's PATH (PufferPanel's in_path). */
  inPath?(name: string): boolean;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** CEL's reserved words cannot be variable names; such a template variable is simply not readable in conditions. */
const RESERVED = new Set(["true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while", "int", "uint", "double", "bool", "string", "bytes", "list", "map", "type", "dyn"]);

export class ConditionError extends Error {}

/**
 * A CEL environment, the library loaded on first use: it costs an idle node or panel several MB
 * (bench/daemon-idle.ts, bench/panel-idle.ts), and most templates have no condition at all.
 */
function celEnvironmentOf(options: EnvironmentOptions): Environment {
  const cel = require("@marcbachmann/cel-js") as typeof import("@marcbachmann/cel-js");
  return new cel.Environment(options);
}

/** Go's names for Node's platforms and processors, as PufferPanel's `os` and `arch` read. */
export function goOs(platform: string = process.platform): string {
  return platform === "win32" ? "windows" : platform;
}
export function goArch(arch: string = process.arch): string {
  return ({ x64: "amd64", ia32: "386", arm: "arm", arm64: "arm64" } as Record<string, string>)[arch] ?? arch;
}

/**
 * Whether `condition` holds. An empty condition holds, or means `success` where a previous step's
 * outcome is known (as PufferPanel reads it). Throws ConditionError naming what is wrong: a
 * syntax error, an unknown name, a cost over MAX_CONDITION_COST, or a result that is not true or
 * false.
 */
export function evaluateCondition(condition: string | undefined, facts: ConditionFacts): boolean {
  const text = (condition ?? "").trim() || (facts.success === undefined ? "" : "success");
  if (text === "") return true;
  if (text.length > MAX_CONDITION_LENGTH) throw new ConditionError(`the condition is longer than ${MAX_CONDITION_LENGTH} characters`);
  const { env, context } = celEnvironment(facts);
  return evaluateIn(env, text, context);
}

/**
 * Checks a condition's syntax, the functions it calls and its cost (each variable taken as
 * UNKNOWN_VALUE_SIZE long) without evaluating it: a template's or a task's, when saved. A name that
 * is not a variable is left to run time, as PufferPanel leaves it. Returns the reason it is not
 * valid, or undefined.
 */
export function conditionProblem(condition: string): string | undefined {
  if (condition.trim() === "") return undefined;
  if (condition.length > MAX_CONDITION_LENGTH) return `longer than ${MAX_CONDITION_LENGTH} characters`;
  const env = celEnvironmentOf({ limits: LIMITS, homogeneousAggregateLiterals: false, unlistedVariablesAreDyn: true });
  env.registerFunction("file_exists(string): bool", () => false);
  env.registerFunction("in_path(string): bool", () => false);
  try {
    const parsed = env.parse(condition.trim());
    const checked = parsed.check();
    if (!checked.valid) return firstLine(checked.error);
    return costProblem(parsed.ast, () => UNKNOWN_VALUE_SIZE);
  } catch (error) {
    return firstLine(error);
  }
}

/**
 * A variable group's condition as PufferPanel's web UI reads it when it shows a server's
 * variables: against their values alone (the form knows no environment, node or files). Throws
 * ConditionError as evaluateCondition does; an empty condition holds.
 */
export function evaluateOnValues(condition: string | undefined, values: Values): boolean {
  const text = (condition ?? "").trim();
  if (text === "") return true;
  if (text.length > MAX_CONDITION_LENGTH) throw new ConditionError(`the condition is longer than ${MAX_CONDITION_LENGTH} characters`);
  const context = variableContext(values);
  const env = celEnvironmentOf({ limits: LIMITS, homogeneousAggregateLiterals: false });
  for (const name of Object.keys(context)) env.registerVariable(name, "dyn");
  return evaluateIn(env, text, context);
}

/**
 * `text` evaluated in `env`: true or false, else ConditionError saying why. Its cost is bounded
 * first with the sizes of the values it is given (conditionCost), so it is refused unevaluated.
 */
function evaluateIn(env: Environment, text: string, context: Record<string, unknown>): boolean {
  let result: unknown;
  try {
    const parsed = env.parse(text);
    const problem = costProblem(parsed.ast, (name) => (Object.hasOwn(context, name) ? weightOf(context[name]) : 1));
    if (problem) throw new ConditionError(problem);
    result = parsed(context);
  } catch (error) {
    throw new ConditionError(`the condition "${shorten(text)}" cannot be evaluated: ${firstLine(error)}`);
  }
  if (typeof result !== "boolean") throw new ConditionError(`the condition "${shorten(text)}" gives ${typeof result === "bigint" ? "a number" : typeof result}, not true or false`);
  return result;
}

/** The variables CEL can read by name, whole numbers as CEL ints. */
function variableContext(values: Values): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (IDENTIFIER.test(name) && !RESERVED.has(name)) context[name] = typeof value === "number" && Number.isInteger(value) ? BigInt(value) : value;
  }
  return context;
}

function celEnvironment(facts: ConditionFacts): { env: Environment; context: Record<string, unknown> } {
  // The template's variables override env, serverId and success (PufferPanel adds them last);
  // os and arch are constants that win over a variable of the same name.
  const context: Record<string, unknown> = { env: facts.env, serverId: facts.serverId, success: facts.success ?? true, ...variableContext(facts.values) };
  context.os = facts.os;
  context.arch = facts.arch;
  const env = celEnvironmentOf({ limits: LIMITS, homogeneousAggregateLiterals: false });
  for (const name of Object.keys(context)) env.registerVariable(name, "dyn");
  env.registerFunction("file_exists(string): bool", (path: string) => facts.fileExists(path));
  env.registerFunction("in_path(string): bool", (name: string) => facts.inPath?.(name) ?? false);
  return { env, context };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim();
}

function shorten(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
