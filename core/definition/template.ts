// The template and server-definition format shared by panel, daemon and islands. A server
// definition is a template with its variables filled in and one environment chosen.
import { z } from "../zod";
import { stepSchema, type Step } from "./steps";
import { conditionProblem } from "./conditions";
import { referencedNames } from "./substitute";
import { ownVariable } from "./variable-value";
import { imageRepository } from "./docker-values";
import { environmentSchema } from "./environment";
import { CONSOLE_TYPES, VARIABLE_TYPES } from "./constants";
import { safeKey } from "./object-keys";
import { limitsSchema } from "./limits";
import { regexProblem } from "./ready-markers";
import { querySchema } from "./query";
import { addonsSchema } from "./addons";
import { rulesProblem } from "./variable-rules";
import { CHANGED_FILES_MODES } from "../install";

export { VARIABLE_TYPES } from "./constants";

// Shorthands for the fields below.
const optionalText = z.optional(z.string());
/** A text, "" when absent. */
const textOrEmpty = z._default(z.string(), "");
/** A whole number (a fraction gets zod's own message, as before). */
const whole = z.number({ error: "expected a whole number" }).check(z.int());

export const variableSchema = z.looseObject({
  display: textOrEmpty,
  desc: textOrEmpty,
  type: z._default(z.enum(VARIABLE_TYPES, { error: `expected a variable type: one of ${VARIABLE_TYPES.join(", ")}` }), "string"),
  value: z._default(z.union([z.string(), z.number(), z.boolean()], { error: "expected a text, a number or true/false" }), ""),
  required: z._default(z.boolean(), true),
  userEdit: z._default(z.boolean(), true),
  options: z.optional(z.array(z.looseObject({ value: z.union([z.string(), z.number(), z.boolean()]), display: textOrEmpty }))),
  /**
   * A string variable whose value may hold line breaks and tabs (a text for writefile). Kiln's
   * own field, beside PufferPanel's: without it a value is one line with no control characters.
   */
  multiLine: z.optional(z.boolean()),
  /**
   * Kiln's own field: the value may hold several arguments (PufferPanel's "JVM arguments"). Where
   * the variable stands alone as an unquoted word of a command line, its value becomes as many
   * words as it holds, split at whitespace with quotes grouping (./command-line valueWords); each
   * is still data, never a shell's syntax nor program text. Without it a value is one argument.
   */
  splitWords: z.optional(z.boolean()),
  /**
   * Checks beside the type (an egg's Laravel rules in Kiln's terms): min/max bound the value as a
   * number, minLength/maxLength its length, pattern a regular expression it must match; a
   * pattern that could backtrack badly is refused here (./variable-rules).
   */
  rules: z.optional(
    z
      .looseObject({
        min: z.optional(z.number({ error: "expected a number" })),
        max: z.optional(z.number({ error: "expected a number" })),
        minLength: z.optional(whole.check(z.gte(0))),
        maxLength: z.optional(whole.check(z.gte(0))),
        pattern: z.optional(z.string({ error: "expected a regular expression" })),
      })
      .check(
        z.superRefine((rules, ctx) => {
          const problem = rulesProblem(rules);
          if (problem) ctx.addIssue({ code: "custom", message: `expected rules Kiln can check (${problem})` });
        }),
      ),
  ),
});

/**
 * The console a server's commands go through (PufferPanel v3's `run.stdin`): the process's own
 * input, or a network console on the node (./console-address checks where it may point).
 */
export const stdinSchema = z.looseObject({
  type: z._default(z.enum(CONSOLE_TYPES, { error: `expected a console type: one of ${CONSOLE_TYPES.join(", ")}` }), "stdin"),
  ip: optionalText,
  port: z.optional(z.pipe(z.union([z.string(), z.number()], { error: "expected a port number or a ${variable}" }), z.transform(String))),
  password: optionalText,
});

/** One entry of a v3 `run.command` list: the first whose condition holds runs, else the one without. */
export const commandEntrySchema = z.looseObject({
  command: z.string({ error: "expected a command line" }),
  if: optionalText,
  stdin: z.optional(stdinSchema),
});

export const runSchema = z.looseObject({
  // A list of texts is joined with && (Kiln's older form); a list of {command, if} is v3's.
  command: z._default(
    z.pipe(
      z.union([z.string(), z.array(z.string()), z.array(commandEntrySchema)], { error: "expected a command line, or a list of {command, if} entries" }),
      z.transform((v): string | CommandEntry[] => (Array.isArray(v) && v.every((e) => typeof e === "string") ? (v as string[]).join(" && ") : (v as string | CommandEntry[]))),
    ),
    "",
  ),
  workingDirectory: textOrEmpty,
  /** A console command that asks the process to stop. */
  stop: optionalText,
  /** A signal number to send instead of a stop command. */
  stopCode: z.optional(z.number().check(z.int(), z.gte(1), z.lte(64))),
  pre: z._default(z.array(stepSchema), []),
  post: z._default(z.array(stepSchema), []),
  environmentVars: z._default(z.record(safeKey, z.string()), {}),
  stdin: z.optional(stdinSchema),
  /** The exit code of a clean stop (PufferPanel v3): any other exit is a crash. */
  expectedExitCode: z.optional(whole),
  autostart: z._default(z.boolean(), false),
  autorestart: z._default(z.boolean(), false),
  autorecover: z._default(z.boolean(), false),
  /**
   * The server counts as running only once a console line contains one of these (an egg's
   * config.startup done markers); "regex:" starts a regular expression. Without: once started.
   */
  readyMarkers: z.optional(z.array(z.string({ error: "expected a text" }).check(z.minLength(1, { error: "expected a text" })), { error: "expected a list of texts" })),
});

/**
 * PufferPanel writes alternatives with "||" ("linux||windows", a binary "java${javaversion} ||
 * java") and may name variables in binaries.
 */
export const requirementsSchema = z.looseObject({
  os: optionalText,
  arch: optionalText,
  binaries: z.optional(z.array(z.string())),
});

/** A group of variables shown together (PufferPanel v3), shown only while its condition holds. */
export const groupSchema = z.looseObject({
  if: optionalText,
  display: textOrEmpty,
  description: textOrEmpty,
  variables: z._default(z.array(z.string()), []),
  order: z._default(z.number(), 0),
});

export const templateSchema = z.looseObject({
  id: optionalText,
  name: textOrEmpty,
  display: textOrEmpty,
  type: z._default(z.string(), "other"),
  readme: optionalText,
  install: z._default(z.array(stepSchema), []),
  run: z._default(runSchema, runSchema.parse({})),
  data: z._default(z.record(safeKey, variableSchema), {}),
  environment: z._default(environmentSchema, { type: "standard" }),
  supportedEnvironments: z._default(z.array(environmentSchema), []),
  requirements: z._default(requirementsSchema, {}),
  groups: z.optional(z.array(groupSchema)),
  /** Resource limits, set by an administrator only (./limits). */
  limits: z.optional(limitsSchema),
  /** Where the template came from, recorded on import (the template list shows it). */
  source: z.optional(z.enum(["kiln", "pufferpanel", "egg"], { error: "expected kiln, pufferpanel or egg" })),
  /** The repository it was imported from ("kiln" for the library, else its URL): importing the same id from another one is a collision. */
  repository: z.optional(z.string({ error: "expected a repository URL" }).check(z.maxLength(2048))),
  /** Files the file manager and SFTP refuse to open, write or rename to (an egg's file_denylist; gitignore-like patterns). */
  fileDenylist: z.optional(z.array(z.string({ error: "expected a text" }), { error: "expected a list of file patterns" })),
  /** What a reinstall that keeps the host's changed files does with the install's own version of each (core/install). */
  changedFiles: z.optional(z.enum(CHANGED_FILES_MODES, { error: `expected one of ${CHANGED_FILES_MODES.join(", ")}` })),
  /** How the node asks the running server who plays (./query); PufferPanel v3's field of the same name. */
  query: z.optional(querySchema),
  /** What its servers run, for the mods and plugins browser where the files do not tell (./addons). */
  addons: z.optional(addonsSchema),
  /**
   * A server's allocations that no port variable carries (the panel writes it; ./server-ports):
   * published and checked at start like the variables' ports, and given to the process as
   * KILN_EXTRA_PORTS.
   */
  extraPorts: z.optional(z.array(z.number({ error: "expected a port" }).check(z.int(), z.gte(1), z.lte(65535)), { error: "expected a list of ports" }).check(z.maxLength(100))),
}).check(z.superRefine((template, ctx) => {
  // Every `if` must be a condition CEL can read (syntax and functions; names are read at run time).
  for (const [path, condition] of conditionsOf(template)) {
    const problem = conditionProblem(condition);
    if (problem) ctx.addIssue({ code: "custom", path, message: `expected a condition such as env == 'host' (${problem})` });
  }
  template.run.readyMarkers?.forEach((marker, i) => {
    const problem = regexProblem(marker);
    if (problem) ctx.addIssue({ code: "custom", path: ["run", "readyMarkers", i], message: `expected a regular expression after "regex:" (${problem})` });
  });
  // What only the template may decide, told when it is saved (the node checks again at start):
  // a network console's address and port, a docker image's repository.
  const editable = (text: unknown) => referencedNames(String(text ?? "")).find((name) => ownVariable(template.data, name)?.userEdit);
  const consoles: Array<[Array<string | number>, StdinConfig | undefined]> = [[["run", "stdin"], template.run.stdin]];
  if (Array.isArray(template.run.command)) template.run.command.forEach((entry, i) => consoles.push([["run", "command", i, "stdin"], entry.stdin]));
  for (const [path, stdin] of consoles) {
    for (const key of ["ip", "port"] as const) {
      const name = editable(stdin?.[key]);
      if (name) ctx.addIssue({ code: "custom", path: [...path, key], message: `expected a value the template fixes: users may edit the variable ${name}` });
    }
  }
  [template.environment, ...template.supportedEnvironments].forEach((env, i) => {
    if (env.type !== "docker") return;
    const name = editable(imageRepository(env.image));
    if (name) ctx.addIssue({ code: "custom", path: i === 0 ? ["environment", "image"] : ["supportedEnvironments", i - 1, "image"], message: `expected an image the template names: users may edit the variable ${name} (a user's value may only be the tag)` });
  });
  // A dockerpull step's image follows the same rule as the environment's.
  const sections: Array<[string[], Step[]]> = [[["install"], template.install], [["run", "pre"], template.run.pre], [["run", "post"], template.run.post]];
  for (const [path, steps] of sections) {
    steps.forEach((step, i) => {
      const name = step.type === "dockerpull" ? editable(imageRepository(step.imageName)) : undefined;
      if (name) ctx.addIssue({ code: "custom", path: [...path, i, "imageName"], message: `expected an image the template names: users may edit the variable ${name} (a user's value may only be the tag)` });
    });
  }
}));

/** Every `if` of a template with where it sits. */
function conditionsOf(template: { install: Step[]; run: z.infer<typeof runSchema>; groups?: Array<{ if?: string }> }): Array<[Array<string | number>, string]> {
  const found: Array<[Array<string | number>, string]> = [];
  const sections: Array<[Array<string | number>, Step[]]> = [[["install"], template.install], [["run", "pre"], template.run.pre], [["run", "post"], template.run.post]];
  for (const [path, steps] of sections) steps.forEach((step, i) => step.if && found.push([[...path, i, "if"], step.if]));
  if (Array.isArray(template.run.command)) template.run.command.forEach((entry, i) => entry.if && found.push([["run", "command", i, "if"], entry.if]));
  template.groups?.forEach((group, i) => group.if && found.push([["groups", i, "if"], group.if]));
  return found;
}

export type Template = z.infer<typeof templateSchema>;
export type TemplateInput = z.input<typeof templateSchema>;
export type ServerDefinition = Template;
export type Variable = z.infer<typeof variableSchema>;
export type RunSection = z.infer<typeof runSchema>;
export type Requirements = z.infer<typeof requirementsSchema>;
export type StdinConfig = z.infer<typeof stdinSchema>;
export type VariableGroup = z.infer<typeof groupSchema>;
export interface CommandEntry {
  command: string;
  if?: string;
  stdin?: StdinConfig;
  [field: string]: unknown;
}

/** The variables as a name-to-value map (the body of GET /data). */
export function variableValues(def: Pick<Template, "data">): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(def.data).map(([name, v]) => [name, v.value]));
}
