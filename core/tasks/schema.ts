// A task as the API takes it: a name, a cron schedule or null for manual
// runs only, the operations in order, and what else starts it: triggers (a console line, a crash,
// a state change, a resource over a threshold, a player joining or leaving) with a cooldown, and
// conditions every automatic run must meet. The same schema checks it on the panel and the node.
// Patterns are compiled by RE2's engine (core/patterns), so this module is the server's and the
// node's only: the browser's editors use ./constants.
import { z } from "../zod";
import { KilnError } from "../errors";
import { stepSchema } from "../definition/steps";
import { isValidCron } from "../cron";
import { compilePattern, PatternError } from "../patterns";
import { assertKnownFields, assertOperationBounds } from "./operation-bounds";
import {
  MAX_COOLDOWN_SECONDS,
  MAX_FOR_SECONDS,
  MAX_OPERATIONS,
  MAX_SLEEP_SECONDS,
  MAX_TASK_NAME,
  MAX_TRIGGER_PATTERN,
  MAX_TRIGGERS,
  MAX_WAIT_SECONDS,
  MAX_WEBHOOK_TEXT,
  MIN_COOLDOWN_SECONDS,
  PLAYER_EVENTS,
  RESOURCE_METRICS,
  RUN_STATES,
  TRIGGER_STATES,
} from "./constants";

/** A console pattern: plain text (found anywhere in the line) or, with regex, RE2 syntax. */
const consolePattern = z.string({ error: "expected a text" }).check(z.minLength(1, { error: "expected a pattern" }), z.maxLength(MAX_TRIGGER_PATTERN, { error: `at most ${MAX_TRIGGER_PATTERN} characters` }));
const flag = z._default(z.boolean({ error: "expected true or false" }), false);
/** A whole number of seconds in [min, max]; hand-written JSON may give it as a numeric text. */
const seconds = (min: number, max: number) => z.coerce.number({ error: "expected a number of seconds" }).check(z.int({ error: "expected a whole number of seconds" }), z.gte(min), z.lte(max));

const taskOnly = [
  z.object({ type: z.literal("console"), command: z.string().check(z.trim(), z.minLength(1)) }),
  z.object({ type: z.literal("start") }),
  z.object({ type: z.literal("stop") }),
  z.object({ type: z.literal("restart") }),
  z.object({ type: z.literal("kill") }),
  z.object({ type: z.literal("sleep"), seconds: z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_SLEEP_SECONDS)) }),
  z.object({ type: z.literal("backup") }),
  z.object({ type: z.literal("waitForConsole"), pattern: consolePattern, regex: flag, timeoutSeconds: seconds(1, MAX_WAIT_SECONDS) }),
  z.object({ type: z.literal("ifState"), state: z.enum(RUN_STATES, { error: `expected one of ${RUN_STATES.join(", ")}` }) }),
  z.object({ type: z.literal("webhook"), webhook: z.coerce.number().check(z.int(), z.positive()), text: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_WEBHOOK_TEXT)) }),
] as const;

// A task's own console (a command to the server) and sleep (seconds) replace the template steps of
// the same names (PufferPanel v3's console message and Go duration).
type TaskOnlyType = z.infer<(typeof taskOnly)[number]>["type"];
type StepOption = (typeof stepSchema.def.options)[number];
type TemplateStepOption = Exclude<StepOption, { shape: { type: z.core.$ZodLiteral<TaskOnlyType> } }>;
/** The type an operation's schema is for: its `type` literal's one value. */
const typeOf = (o: { shape: { type: z.core.$ZodLiteral } }) => o.shape.type._zod.def.values[0];
const taskOnlyTypes = new Set(taskOnly.map(typeOf));
const templateSteps = stepSchema.def.options.filter((o): o is TemplateStepOption => !taskOnlyTypes.has(typeOf(o)));

export const operationSchema = z.discriminatedUnion("type", [...taskOnly, ...templateSteps]);
export type Operation = z.infer<typeof operationSchema>;
/** The fields each operation type has: any other is refused (./operation-bounds), not kept. */
const OPERATION_FIELDS = new Map<string, readonly string[]>([...taskOnly, ...templateSteps].map((o) => [String(typeOf(o)), Object.keys(o.shape)]));

export const triggerSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("console"), pattern: consolePattern, regex: flag }),
    z.object({ type: z.literal("crash") }),
    z.object({ type: z.literal("state"), state: z.enum(TRIGGER_STATES, { error: `expected one of ${TRIGGER_STATES.join(", ")}` }) }),
    z.object({
      type: z.literal("resource"),
      metric: z.enum(RESOURCE_METRICS, { error: `expected one of ${RESOURCE_METRICS.join(", ")}` }),
      // cpu in percent of one core, memory and disk in MiB, players a count.
      above: z.coerce.number({ error: "expected a number" }).check(z.refine(Number.isFinite, { error: "expected a number" }), z.gte(0), z.lte(1_000_000_000)),
      forSeconds: seconds(0, MAX_FOR_SECONDS),
    }),
    z.object({ type: z.literal("player"), on: z.enum(PLAYER_EVENTS, { error: `expected one of ${PLAYER_EVENTS.join(", ")}` }) }),
  ],
  { error: "expected a trigger: console, crash, state, resource or player" },
);
export type Trigger = z.infer<typeof triggerSchema>;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const clockTime = z.string({ error: 'expected a time "HH:MM"' }).check(z.regex(HH_MM, { error: 'expected a time "HH:MM" (24-hour)' }));

/**
 * What must hold for an automatic (scheduled or triggered) run to start, all of them: the server
 * running or stopped, the node's clock inside a window (from inclusive, to exclusive; a window
 * past midnight such as 22:00–06:00 works), and a variable holding a value.
 */
export const conditionsSchema = z
  .object({
    state: z.optional(z.enum(RUN_STATES, { error: `expected one of ${RUN_STATES.join(", ")}` })),
    between: z.optional(z.object({ from: clockTime, to: clockTime }).check(z.refine((w) => w.from !== w.to, { error: "from and to are the same time", path: ["to"] }))),
    variable: z.optional(z.string({ error: "expected a variable name" }).check(z.regex(/^[A-Za-z0-9_.-]{1,100}$/, { error: "expected a variable name" }))),
    equals: z.optional(z.string({ error: "expected a text" }).check(z.maxLength(1000))),
  })
  .check(
    z.refine((c) => (c.variable === undefined) === (c.equals === undefined), { error: "variable and equals go together", path: ["variable"] }),
  );
export type TaskConditions = z.infer<typeof conditionsSchema>;

export const taskSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_TASK_NAME)),
  // An empty schedule is manual only, saved as null.
  cronSchedule: z.pipe(
    z.nullish(z.string().check(z.trim())),
    z.transform((v: string | null | undefined) => (v ? v : null)),
  ),
  operations: z._default(z.array(operationSchema).check(z.maxLength(MAX_OPERATIONS)), []),
  // Absent (or empty): the task runs on its schedule and by hand only, as before triggers existed.
  triggers: z.optional(z.array(triggerSchema).check(z.maxLength(MAX_TRIGGERS, { error: `at most ${MAX_TRIGGERS} triggers` }))),
  cooldownSeconds: z.optional(seconds(MIN_COOLDOWN_SECONDS, MAX_COOLDOWN_SECONDS)),
  conditions: z.optional(conditionsSchema),
});
export type Task = z.infer<typeof taskSchema>;

/** The longest `client` a stored task names: longer than any OAuth2 client id the panel makes. */
export const MAX_CLIENT_ID = 64;

/** A task as a node keeps it: who saved it last, so a scheduled run can be checked against their rights. */
export interface StoredTask extends Task {
  owner?: number;
  /**
   * The OAuth2 client that saved it, when one did: its runs are checked with that client's view
   * (bound to a server, it has no other; deleted, the task no longer runs), not the owner's whole rights.
   */
  client?: string;
  /** Its last run, kept by the node across saves of the task (absent: never run). */
  lastRun?: TaskRun;
}

/** One run of a task: when it began (epoch ms), whether every operation succeeded, and how it was started. */
export interface TaskRun {
  at: number;
  ok: boolean;
  how: "scheduled" | "manual" | "triggered";
}

/**
 * A task as the node's GET …/tasks answers it: as stored, with when it runs next by the node's
 * clock and time zone (epoch ms; null for a task with no schedule, or one that never fires).
 */
export interface ListedTask extends StoredTask {
  nextRun: number | null;
}

/** The fields whose faults are ErrTaskTriggerInvalid: what starts a task other than its schedule. */
const TRIGGER_FIELDS = new Set(["triggers", "cooldownSeconds", "conditions"]);

/**
 * Parses a task from a request body. A bad schedule is ErrTaskScheduleInvalid; a blank name is
 * ErrFieldRequired; a bad trigger, cooldown or condition, or a pattern RE2 cannot run (a trigger's
 * or a waitForConsole step's), is ErrTaskTriggerInvalid naming the field and why; a field an
 * operation does not have is ErrUnknownField; a list, a text or a step's `if` over its bound is
 * ErrFieldTooLarge, an `if` CEL cannot read or that would cost too much ErrTemplateFieldInvalid;
 * anything else malformed is ErrInvalidJson naming the field.
 *
 * Stored as before for a task without triggers: an empty list of triggers, or a cooldown without
 * any, is left out, and so are empty conditions.
 */
export function parseTask(raw: unknown): Task {
  const parsed = taskSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".");
    if (field === "name") throw new KilnError("ErrFieldRequired", { field: "name" });
    // A pattern is a trigger's matter wherever it stands: a waitForConsole step's too.
    const pattern = issue.path[0] === "operations" && issue.path[2] === "pattern";
    if (TRIGGER_FIELDS.has(String(issue.path[0])) || pattern) throw triggerInvalid(field || "triggers", issue.message);
    if (issue.code === "too_big") throw new KilnError("ErrFieldTooLarge", { field, max: Number(issue.maximum) }, `invalid task: ${field}: ${issue.message}`);
    throw new KilnError("ErrInvalidJson", { field }, `invalid task: ${field}: ${issue.message}`);
  }
  assertKnownFields(raw, (type) => OPERATION_FIELDS.get(type));
  const task = parsed.data;
  assertOperationBounds(task.operations);
  if (task.cronSchedule !== null && !isValidCron(task.cronSchedule)) throw new KilnError("ErrTaskScheduleInvalid", { schedule: task.cronSchedule });
  task.triggers?.forEach((trigger, i) => trigger.type === "console" && checkPattern(trigger, `triggers.${i}.pattern`));
  task.operations.forEach((operation, i) => operation.type === "waitForConsole" && checkPattern(operation, `operations.${i}.pattern`));
  if (!task.triggers?.length) {
    delete task.triggers;
    delete task.cooldownSeconds;
  }
  if (task.conditions && Object.values(task.conditions).every((v) => v === undefined)) delete task.conditions;
  return task;
}

function triggerInvalid(field: string, reason: string): KilnError {
  return new KilnError("ErrTaskTriggerInvalid", { field, reason }, `invalid task: ${field}: ${reason}`);
}

/** A regular expression must be one RE2 compiles within its bounds (core/patterns); plain text always is. */
function checkPattern(spec: { pattern: string; regex: boolean }, field: string): void {
  if (!spec.regex) return;
  try {
    compilePattern(spec.pattern);
  } catch (error) {
    if (error instanceof PatternError) throw triggerInvalid(field, error.reason);
    throw error;
  }
}
