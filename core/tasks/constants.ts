// Task operations (spec: Server task, Step types; issue 7): the install steps plus what a schedule
// needs of a running server. Zod-free, so the browser's step editor can use it.
import { STEP_TYPES } from "../definition/constants";
import type { ServerFlag } from "../scopes";

/** Operations only tasks have: a console command, the power actions, a pause, and a backup (issue 20). */
export const TASK_ONLY_TYPES = ["console", "start", "stop", "restart", "kill", "sleep", "backup"] as const;
export const OPERATION_TYPES = [...TASK_ONLY_TYPES, ...STEP_TYPES] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

/** Spec section 9: the schedule a new task starts with. */
export const DEFAULT_TASK_CRON = "0 0 */1 * *";
/** A sleep longer than a day is a schedule, not a step. */
export const MAX_SLEEP_SECONDS = 86_400;
export const MAX_TASK_NAME = 100;
export const MAX_OPERATIONS = 100;

/** What a caller must hold for one operation: a server flag, or "admin". */
export type OperationRequirement = ServerFlag | "admin";

/** Steps that only change files inside the server's folder (the jail keeps them there). */
const FILE_STEPS: readonly string[] = ["alterfile", "writefile", "move", "mkdir"];

/**
 * Who may put an operation in a task, and run it: a task never does more than its author may do
 * by hand. Restart both stops and starts. `command` and the download steps run or fetch things
 * on the node, which only admins may.
 */
export function operationNeeds(type: string): OperationRequirement[] {
  switch (type) {
    case "console":
      return ["sendServerConsole"];
    case "start":
      return ["startServer"];
    case "stop":
    case "kill":
      return ["stopServer"];
    case "restart":
      return ["stopServer", "startServer"];
    case "sleep":
      return [];
    case "backup":
      return ["backups"];
    default:
      return FILE_STEPS.includes(type) ? ["putServerFiles"] : ["admin"];
  }
}
