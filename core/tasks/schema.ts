// A task as the API takes it (spec: Server task): a name, a cron schedule or null for manual
// runs only, and the operations in order. The same schema checks it on the panel and the node.
import { z } from "../zod";
import { KilnError } from "../errors";
import { stepSchema } from "../definition/steps";
import { isValidCron } from "../cron";
import { MAX_OPERATIONS, MAX_SLEEP_SECONDS, MAX_TASK_NAME } from "./constants";

const taskOnly = [
  z.object({ type: z.literal("console"), command: z.string().check(z.trim(), z.minLength(1)) }),
  z.object({ type: z.literal("start") }),
  z.object({ type: z.literal("stop") }),
  z.object({ type: z.literal("restart") }),
  z.object({ type: z.literal("kill") }),
  z.object({ type: z.literal("sleep"), seconds: z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_SLEEP_SECONDS)) }),
  z.object({ type: z.literal("backup") }),
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

export const taskSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_TASK_NAME)),
  // Spec section 4: an empty schedule is manual only, saved as null.
  cronSchedule: z.pipe(
    z.nullish(z.string().check(z.trim())),
    z.transform((v: string | null | undefined) => (v ? v : null)),
  ),
  operations: z._default(z.array(operationSchema).check(z.maxLength(MAX_OPERATIONS)), []),
});
export type Task = z.infer<typeof taskSchema>;

/** A task as a node keeps it: who saved it last, so a scheduled run can be checked against their rights. */
export interface StoredTask extends Task {
  owner?: number;
  /** Its last run, kept by the node across saves of the task (absent: never run). */
  lastRun?: TaskRun;
}

/** One run of a task: when it began (epoch ms), whether every operation succeeded, and how it was started. */
export interface TaskRun {
  at: number;
  ok: boolean;
  how: "scheduled" | "manual";
}

/**
 * A task as the node's GET …/tasks answers it: as stored, with when it runs next by the node's
 * clock and time zone (epoch ms; null for a task with no schedule, or one that never fires).
 */
export interface ListedTask extends StoredTask {
  nextRun: number | null;
}

/**
 * Parses a task from a request body. A bad schedule is ErrTaskScheduleInvalid; a blank name is
 * ErrFieldRequired; anything else malformed is ErrInvalidJson naming the field.
 */
export function parseTask(raw: unknown): Task {
  const parsed = taskSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".");
    if (field === "name") throw new KilnError("ErrFieldRequired", { field: "name" });
    throw new KilnError("ErrInvalidJson", { field }, `invalid task: ${field}: ${issue.message}`);
  }
  const task = parsed.data;
  if (task.cronSchedule !== null && !isValidCron(task.cronSchedule)) throw new KilnError("ErrTaskScheduleInvalid", { schedule: task.cronSchedule });
  return task;
}
