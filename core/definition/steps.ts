// Install and task steps (spec: Step types). A single string is accepted wherever a list is
// expected, as PufferPanel templates write it; the parsed form is always the list.
import { z } from "zod";
import { JAVA_VERSIONS, STEP_TYPES } from "./constants";

const list = z.union([z.string(), z.array(z.string())]).transform((v) => (typeof v === "string" ? [v] : v));
const text = z.string();

export { JAVA_VERSIONS, STEP_TYPES } from "./constants";

export const stepSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("download"), files: list }),
  z.object({ type: z.literal("command"), commands: list }),
  z.object({ type: z.literal("alterfile"), file: text, regex: z.boolean().default(true), search: text, replace: z.string().default("") }),
  z.object({ type: z.literal("writefile"), target: text, text: z.string().default("") }),
  z.object({ type: z.literal("move"), source: text, target: text }),
  z.object({ type: z.literal("mkdir"), target: text }),
  z.object({ type: z.literal("mojangdl"), version: text, target: text }),
  z.object({ type: z.literal("forgedl"), version: text, filename: text }),
  z.object({ type: z.literal("spongeforgedl"), releaseType: text }),
  z.object({ type: z.literal("fabricdl"), targetFile: text }),
  z.object({
    type: z.literal("javadl"),
    version: z.coerce.number().int().refine((v) => (JAVA_VERSIONS as readonly number[]).includes(v), { message: "java version must be 8, 16 or 17" }),
  }),
  z.object({ type: z.literal("steamgamedl"), appId: z.union([z.string(), z.number()]).transform(String) }),
]);

export type Step = z.infer<typeof stepSchema>;
export type StepType = Step["type"];
export type StepOf<T extends StepType> = Extract<Step, { type: T }>;

// The zod-free list in ./constants must name exactly the schema's step types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _stepTypesMatch: Same<(typeof STEP_TYPES)[number], StepType> = true;
void _stepTypesMatch;
