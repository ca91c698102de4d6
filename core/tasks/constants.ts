// Task operations: the install steps plus what a schedule
// needs of a running server. Zod-free, so the browser's step editor can use it.
import { STEP_TYPES } from "../definition/constants";
import type { ServerFlag } from "../scopes";

/**
 * Operations only tasks have: a console command, the power actions, a pause, a backup, a wait for
 * a console line, a check of the server's state that ends the run early, and a message to one of
 * the webhooks its author manages.
 */
export const TASK_ONLY_TYPES = ["console", "start", "stop", "restart", "kill", "sleep", "backup", "waitForConsole", "ifState", "webhook"] as const;
/** The longest text a webhook step sends. */
export const MAX_WEBHOOK_TEXT = 1000;
export const OPERATION_TYPES = [...TASK_ONLY_TYPES, ...STEP_TYPES] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

/** The schedule a new task starts with: every day at 00:00. */
export const DEFAULT_TASK_CRON = "0 0 */1 * *";
/** A sleep longer than a day is a schedule, not a step. */
export const MAX_SLEEP_SECONDS = 86_400;
export const MAX_TASK_NAME = 100;
/**
 * A server's tasks live in one file of the node (<data>/tasks/<server>.json), outside the server's
 * folder and its disk space, read and written whole by every task call and every run: so they are
 * bounded, in number, steps, each text a step holds and all together. A limit lowered later
 * refuses new saves only: tasks already stored load and run as they are.
 */
export const MAX_TASKS_PER_SERVER = 100;
export const MAX_OPERATIONS = 100;
/** Any text of a step (a path, a command, a version, each entry of a list): far above a path's 4096. */
export const MAX_STEP_TEXT = 4096;
/** The texts that are a file's content (a writefile's text, a containerscript's script). */
export const MAX_STEP_CONTENT = 65_536;
export const STEP_CONTENT_FIELDS: Readonly<Record<string, string>> = { writefile: "text", containerscript: "script" };
/** Entries of any list a step holds (commands, files, a configfile's replacements). */
export const MAX_STEP_LIST = 100;
/** All of a server's tasks together, as the node stores them (JSON bytes). */
export const MAX_SERVER_TASKS_BYTES = 1024 * 1024;
/** The longest a waitForConsole step waits for its line: an hour (longer is a schedule or a trigger). */
export const MAX_WAIT_SECONDS = 3600;

/** What starts a task besides its schedule (docs/tasks.md "Triggers"). */
export const TRIGGER_TYPES = ["console", "crash", "state", "resource", "player"] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
/** The lifecycle changes a state trigger waits for (daemon/events/lifecycle's server.started, .stopped, .installed). */
export const TRIGGER_STATES = ["started", "stopped", "installed"] as const;
/** cpu in percent of one core, memory and disk in MiB, players a count. */
export const RESOURCE_METRICS = ["cpu", "memory", "disk", "players"] as const;
export const PLAYER_EVENTS = ["join", "leave"] as const;
/** The states an ifState step and a task's state condition name. */
export const RUN_STATES = ["running", "stopped"] as const;
export type RunState = (typeof RUN_STATES)[number];

/** A task has at most this many triggers; a console trigger's pattern at most this many characters. */
export const MAX_TRIGGERS = 10;
export const MAX_TRIGGER_PATTERN = 200;
/**
 * Only the first this-many characters of a console line are looked at (by triggers and
 * waitForConsole): a chat line or a log line is far shorter, and a pattern's cost grows with it.
 */
export const MAX_TRIGGER_LINE = 1024;
/**
 * Seconds a task waits after a triggered run before a trigger may start it again. The minimum
 * keeps two tasks that trigger each other (or a trigger on a line every few milliseconds) to one
 * run a second.
 */
export const DEFAULT_COOLDOWN_SECONDS = 10;
export const MIN_COOLDOWN_SECONDS = 1;
export const MAX_COOLDOWN_SECONDS = 86_400;
/** The longest a resource must stay above its threshold: a day. */
export const MAX_FOR_SECONDS = 86_400;

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
    case "ifState":
      return [];
    case "waitForConsole":
      // It reads the console: no more than its author could see there.
      return ["viewServerConsole"];
    case "backup":
      return ["backups"];
    case "webhook":
      // The panel also checks, when it sends, that the author manages that endpoint.
      return ["manageWebhooks"];
    default:
      return FILE_STEPS.includes(type) ? ["putServerFiles"] : ["admin"];
  }
}

/**
 * Who may put a trigger on a task: a trigger reads what it waits for, and what it read can reach
 * the task's steps (a console line's groups, a player's name), so it needs the right to see that.
 * The server's state (crash, started, stopped, installed) is what anyone with the server sees.
 */
export function triggerNeeds(type: string): OperationRequirement[] {
  switch (type) {
    case "console":
      return ["viewServerConsole"];
    case "resource":
    case "player":
      return ["viewServerStats"];
    case "crash":
    case "state":
      return [];
    default:
      return ["admin"];
  }
}
