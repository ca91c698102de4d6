// Install and task steps (PufferPanel v3's operations included). A single string is
// accepted wherever a list is expected, as PufferPanel templates write it; the parsed form is
// always the list. Every step may carry an `if` condition (./conditions), and fields Kiln does not
// know are kept as written (they round-trip through the API and the editor) rather than dropped.
// Messages name what would be accepted, so a template author can fix the field at once.
import { z } from "../zod";
import { MAX_CONDITION_LENGTH } from "./conditions";
import { CONFIG_PARSERS, JAVA_VERSIONS, STEP_TYPES } from "./constants";

export { JAVA_VERSIONS, STEP_TYPES } from "./constants";

/** A whole `${name}` reference: a field that takes its value from a variable at run time. */
export const VARIABLE_REFERENCE = /^\$\{[A-Za-z0-9_.-]+\}$/;

const list = z.pipe(
  z.union([z.string(), z.array(z.string())], { error: "expected a text or a list of texts" }),
  z.transform((v: string | string[]) => (typeof v === "string" ? [v] : v)),
);
const text = z.string({ error: "expected a text" });
const optionalText = z.optional(z.string({ error: "expected a text" }));
/** PufferPanel writes ids and numbers either way ("294420" or 294420). */
const textOrNumber = z.pipe(z.union([z.string(), z.number()], { error: "expected a text or a number" }), z.transform(String));
const condition = z.optional(z.string({ error: "expected a condition (a CEL expression, e.g. env == 'host')" }).check(z.maxLength(MAX_CONDITION_LENGTH, { error: `expected a condition of at most ${MAX_CONDITION_LENGTH} characters` })));
/** A text, `fallback` when absent. */
const textOr = (fallback: string) => z._default(z.string(), fallback);

export const JAVA_VERSION_HINT = `a Java version (${JAVA_VERSIONS.join(", ")}) or a \${variable}`;

/**
 * A Java version as written: one javadl offers (read as its number), or a variable that will
 * hold one (kept as written, checked again when the step runs).
 */
const javaVersion = z.pipe(
  z
    .union([z.number(), z.string()], { error: `expected ${JAVA_VERSION_HINT}` })
    .check(z.refine((v) => VARIABLE_REFERENCE.test(String(v).trim()) || (JAVA_VERSIONS as readonly number[]).includes(Number(v)), { error: `expected ${JAVA_VERSION_HINT}` })),
  z.transform((v: number | string): number | string => (VARIABLE_REFERENCE.test(String(v).trim()) ? String(v).trim() : Number(v))),
);

/** Go's duration text ("300ms", "5s", "1m30s") or, as PufferPanel reads a bare number, nanoseconds. */
const GO_DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
const duration = z.union([z.string(), z.number()], { error: 'expected a duration such as "5s", "1m30s" or "500ms"' }).check(
  z.refine((v) => (typeof v === "number" ? Number.isFinite(v) && v >= 0 : GO_DURATION.test(v.trim()) || VARIABLE_REFERENCE.test(v.trim())), {
    error: 'expected a duration such as "5s", "1m30s" or "500ms"',
  }),
);

const step = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) => z.looseObject({ type: z.literal(type), if: condition, ...shape });

const stepTypes = STEP_TYPES.join(", ");

export const stepSchema = z.discriminatedUnion(
  "type",
  [
    step("download", { files: list }),
    step("command", { commands: list }),
    step("alterfile", { file: text, regex: z._default(z.boolean({ error: "expected true or false" }), true), search: text, replace: textOr("") }),
    step("writefile", { target: text, text: textOr("") }),
    step("move", { source: text, target: text }),
    step("mkdir", { target: text }),
    step("mojangdl", { version: text, target: text }),
    // Kiln's form names the file `filename`; PufferPanel v3's `target`, and may give only the
    // Minecraft version (the newest Forge for it) and a variable to receive the Forge version.
    step("forgedl", { version: textOr(""), filename: optionalText, target: optionalText, minecraftVersion: optionalText, outputVariable: optionalText }).check(
      z.refine((s) => s.version !== "" || Boolean(s.minecraftVersion), { error: "forgedl needs a version or a minecraftVersion", path: ["version"] }),
      z.refine((s) => Boolean(s.filename || s.target), { error: "forgedl needs a target file name", path: ["target"] }),
    ),
    step("spongeforgedl", { releaseType: text }),
    // v3 writes no field at all: the installer is saved as fabric-installer.jar, as PufferPanel does.
    step("fabricdl", { targetFile: textOr("fabric-installer.jar") }),
    step("javadl", { version: javaVersion }),
    step("steamgamedl", { appId: textOrNumber, username: optionalText, password: optionalText, extraArgs: z.optional(list) }),
    step("extract", { source: text, destination: textOr("") }),
    step("archive", { source: list, destination: text }),
    step("sleep", { duration }),
    step("console", { message: textOr("") }),
    step("resolveforgeversion", { version: textOr(""), minecraftVersion: textOr(""), outputVariable: textOr("opForgeVersion") }),
    step("resolveneoforgeversion", { version: textOr(""), minecraftVersion: textOr(""), outputVariable: textOr("opNeoForgeVersion") }),
    step("neoforgedl", { version: textOr(""), minecraftVersion: textOr(""), target: text, outputVariable: textOr("opNeoForgeVersion") }).check(
      z.refine((s) => s.version !== "" || s.minecraftVersion !== "", { error: "neoforgedl needs a version or a minecraftVersion", path: ["version"] }),
    ),
    step("spongedl", { spongeType: text, recommended: z._default(z.boolean(), false), spongeVersion: textOr(""), minecraftVersion: textOr("") }),
    step("curseforge", { projectId: textOrNumber, fileId: z._default(textOrNumber, ""), java: textOr("java") }),
    // Pulls the image through the Docker Engine (docker environments only, as PufferPanel's).
    step("dockerpull", { imageName: text }),
    // Rewrites values in a config file before a start (an egg's config.files): `match` and
    // `value` as the egg writes them, its {{…}} placeholders resolved when the step runs.
    step("configfile", {
      file: text,
      parser: z.enum(CONFIG_PARSERS, { error: `expected a parser: one of ${CONFIG_PARSERS.join(", ")}` }),
      replace: z._default(z.array(z.looseObject({ match: text, value: z._default(z.string({ error: "expected a text" }), ""), ifValue: optionalText }), { error: "expected a list of {match, value} entries" }), []),
    }),
    // An install script run in a container of its own (an egg's scripts.installation): the
    // server folder at /mnt/server, the variables in its environment, never in the script's text.
    step("containerscript", { image: text.check(z.minLength(1, { error: "expected an image name" })), entrypoint: textOr("ash"), script: textOr("") }),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? `expected a step type: one of ${stepTypes}` : undefined) },
);

export type Step = z.infer<typeof stepSchema>;
export type StepType = Step["type"];
export type StepOf<T extends StepType> = Extract<Step, { type: T }>;

// The zod-free list in ./constants must name exactly the schema's step types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _stepTypesMatch: Same<(typeof STEP_TYPES)[number], StepType> = true;
void _stepTypesMatch;
