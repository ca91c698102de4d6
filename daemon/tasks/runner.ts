// Runs one task: its operations in order, each announced on the server's console with the
// daemon marker; the first failure stops the run with a line saying which step and why. An ifState
// step whose state does not hold ends the run early, as a success. A run a trigger started gives its
// steps the trigger's values (${trigger.0}, ${trigger.1}…, ./triggers/line-match), as text.
import type { Operation, StoredTask } from "../../core/tasks";
import { BY_TASK_PREFIX, type TaskRunHow } from "../../core/activity/property-values";
import type { Step } from "../../core/definition";
import { substitute } from "../../core/definition/substitute";
import type { Server } from "../servers/server";
import type { Clock } from "./clock";
import { reasonMessage } from "../http/errors";
import { SaidError } from "../said-error";
import { message, type DaemonMessage, type MessageValue } from "../../core/live/daemon-message";
import { commandValue, lineMatcher, serverIs, type ConsoleLines, type FiredTrigger } from "./triggers";

export interface RunContext {
  clock: Clock;
  /** Aborted when the task or its server is deleted, or the node shuts down. */
  signal: AbortSignal;
  /** Makes a backup of the server (the operation `backup`), said to be by the task; `how` the run was started (a run by hand or a trigger counts against the backup rate). */
  backup?: (serverId: string, by: string, signal: AbortSignal, how: RunHow) => Promise<void>;
  /** How the run was started. */
  how?: RunHow;
  /** The trigger that started the run, when one did: said on the console, its values given to the steps. */
  trigger?: FiredTrigger;
  /** The server's console as lines of its own output, for waitForConsole steps. */
  lines?: (server: Server) => ConsoleLines;
  /** Hands a webhook step's text to the panel, which sends it to that endpoint if the task's author manages it. */
  webhook?: (webhookId: number, text: string) => void;
}

/** A line a run writes, with the task's name before it so a user can tell tasks apart. */
export function taskLine(task: Pick<StoredTask, "name">, line: DaemonMessage): DaemonMessage {
  return message("daemon.task.line", { task: task.name, line });
}

/** How a run started: core/activity's TASK_RUN_HOWS (server.task.run's `how`). */
export type RunHow = TaskRunHow;

/** What perform answers for an ifState step whose state does not hold: the steps after it are skipped. */
const SKIP_REST = Symbol("skip the rest");

/** Resolves true when every operation ran, false when one failed or the run was cancelled (both logged). */
export async function runTask(server: Server, task: StoredTask, how: RunHow, ctx: RunContext): Promise<boolean> {
  const log = (line: DaemonMessage) => server.console.daemon(taskLine(task, line));
  log(ctx.trigger ? message("daemon.task.started.triggered", { trigger: ctx.trigger.description }) : message(`daemon.task.started.${how}`));
  for (const [i, operation] of task.operations.entries()) {
    const label = message("daemon.step.label", { number: i + 1, total: task.operations.length });
    if (ctx.signal.aborted) {
      log(message("daemon.step.cancelled", { label, type: operation.type }));
      return false;
    }
    log(message("daemon.step.running", { label, type: describe(operation) }));
    try {
      if ((await perform(server, task, operation, log, ctx)) === SKIP_REST) {
        log(message(`daemon.task.ifStateSkipped.${operation.type === "ifState" ? operation.state : "running"}`, { label }));
        break;
      }
    } catch (error) {
      const reason = ctx.signal.aborted ? message("daemon.cancelled") : reasonMessage(error);
      log(message("daemon.step.failed", { label, type: operation.type, reason }));
      return false;
    }
  }
  log(message("daemon.task.finished"));
  return true;
}

function perform(server: Server, task: StoredTask, operation: Operation, log: (line: DaemonMessage) => void, ctx: RunContext): Promise<void | typeof SKIP_REST> {
  const values = ctx.trigger?.values ?? {};
  switch (operation.type) {
    case "console":
      // A command sent to a stopped server would vanish; the run says so instead.
      if (!server.isRunning()) throw new SaidError(message("daemon.task.notRunning"));
      // Only the trigger's values: any other ${…} is sent as written, as before triggers existed.
      // Each is one command's text only (triggers/line-match: no line break, no ";").
      return server.sendCommand(substitute(operation.command, Object.fromEntries(Object.entries(values).map(([name, value]) => [name, commandValue(value)]))));
    case "waitForConsole":
      if (!ctx.lines) throw new SaidError(message("daemon.task.notRunning"));
      return waitForLine(ctx.lines(server), operation, ctx);
    case "ifState":
      return Promise.resolve(serverIs(server, operation.state) ? undefined : SKIP_REST);
    case "start":
    case "stop":
    case "restart":
    case "kill":
      return server.power(operation.type);
    case "sleep":
      return ctx.clock.sleep(operation.seconds * 1000, ctx.signal);
    case "backup":
      if (!ctx.backup) throw new SaidError(message("daemon.task.noBackups"));
      return ctx.backup(server.id, `${BY_TASK_PREFIX}${task.name}`, ctx.signal, ctx.how ?? "scheduled");
    case "webhook":
      if (!ctx.webhook) throw new SaidError(message("daemon.task.noPanel"));
      return Promise.resolve(ctx.webhook(operation.webhook, substitute(operation.text, values)));
    default:
      return server.runTaskStep(operation as Step, log, ctx.signal, values);
  }
}

type WaitForConsole = Extract<Operation, { type: "waitForConsole" }>;

/** Resolves at the first line of the server's own output from now on that matches; fails after the timeout. */
function waitForLine(lines: ConsoleLines, step: WaitForConsole, ctx: RunContext): Promise<void> {
  const match = lineMatcher(step);
  const timer = new AbortController();
  const signal = AbortSignal.any([ctx.signal, timer.signal]);
  return new Promise<void>((resolve, reject) => {
    let stop = (): void => undefined;
    const done = (error?: unknown) => {
      stop();
      timer.abort();
      if (error === undefined) resolve();
      else reject(error);
    };
    stop = lines.listen((line) => {
      if (match(line)) done();
    });
    ctx.clock.sleep(step.timeoutSeconds * 1000, signal).then(
      () => done(new SaidError(message("daemon.task.waitTimedOut", { pattern: step.pattern, seconds: step.timeoutSeconds }))),
      (error: unknown) => {
        // Our own abort (a line matched) ends nothing more; the run's (cancelled) fails the step.
        if (ctx.signal.aborted) done(error);
      },
    );
  });
}

/** The operation and what it acts on, short enough for one console line. */
function describe(operation: Operation): MessageValue {
  switch (operation.type) {
    case "console":
      return message("daemon.task.console", { command: operation.command });
    case "sleep":
      return message("daemon.task.sleep", { seconds: operation.seconds });
    case "waitForConsole":
      return message("daemon.task.waitForConsole", { pattern: operation.pattern, seconds: operation.timeoutSeconds });
    case "ifState":
      return message(`daemon.task.ifState.${operation.state}`);
    case "webhook":
      return message("daemon.task.webhook", { webhook: operation.webhook });
    default:
      return operation.type;
  }
}
