// The template and server-definition format shared by panel, daemon and islands. A server
// definition is a template with its variables filled in and one environment chosen.
import { z } from "zod";
import { stepSchema } from "./steps";
import { environmentSchema } from "./environment";
import { VARIABLE_TYPES } from "./constants";
import { safeKey } from "./object-keys";
import { limitsSchema } from "./limits";

export { VARIABLE_TYPES } from "./constants";

export const variableSchema = z.object({
  display: z.string().default(""),
  desc: z.string().default(""),
  type: z.enum(VARIABLE_TYPES).default("string"),
  value: z.union([z.string(), z.number(), z.boolean()]).default(""),
  required: z.boolean().default(true),
  userEdit: z.boolean().default(true),
  options: z.array(z.object({ value: z.union([z.string(), z.number(), z.boolean()]), display: z.string().default("") })).optional(),
  /**
   * A string variable whose value may hold line breaks and tabs (a text for writefile). Kiln's
   * own field, beside PufferPanel's: without it a value is one line with no control characters.
   */
  multiLine: z.boolean().optional(),
});

export const runSchema = z.object({
  command: z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v.join(" && ") : v)).default(""),
  workingDirectory: z.string().default(""),
  /** A console command that asks the process to stop. */
  stop: z.string().optional(),
  /** A signal number to send instead of a stop command. */
  stopCode: z.number().int().min(1).max(64).optional(),
  pre: z.array(stepSchema).default([]),
  post: z.array(stepSchema).default([]),
  environmentVars: z.record(safeKey, z.string()).default({}),
  autostart: z.boolean().default(false),
  autorestart: z.boolean().default(false),
  autorecover: z.boolean().default(false),
});

export const requirementsSchema = z.object({
  os: z.string().optional(),
  arch: z.string().optional(),
  binaries: z.array(z.string()).optional(),
});

export const templateSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().default(""),
  display: z.string().default(""),
  type: z.string().default("other"),
  readme: z.string().optional(),
  install: z.array(stepSchema).default([]),
  run: runSchema.default(runSchema.parse({})),
  data: z.record(safeKey, variableSchema).default({}),
  environment: environmentSchema.default({ type: "standard" }),
  supportedEnvironments: z.array(environmentSchema).default([]),
  requirements: requirementsSchema.default({}),
  /** Resource limits, set by an administrator only (./limits). */
  limits: limitsSchema.optional(),
});

export type Template = z.infer<typeof templateSchema>;
export type TemplateInput = z.input<typeof templateSchema>;
export type ServerDefinition = Template;
export type Variable = z.infer<typeof variableSchema>;
export type RunSection = z.infer<typeof runSchema>;
export type Requirements = z.infer<typeof requirementsSchema>;

/** The variables as a name-to-value map (the body of GET /data). */
export function variableValues(def: Pick<Template, "data">): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(def.data).map(([name, v]) => [name, v.value]));
}
