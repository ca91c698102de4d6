// Runs one task: its operations in order, each announced on the server's console with the
// daemon marker; the first failure stops the run with a line saying which step and why.
import type { Operation, StoredTask } from "../../core/tasks";
import type { Step } from "../../core/definition";
import type { Server } from "../servers/server";
import type { Clock } from "./clock";
import { reasonMessage } from "../http/errors";
import { SaidError } from "../said-error";
import { message, type DaemonMessage, type MessageValue } from "../../core/live/daemon-message";

export interface RunContext {
  clock: Clock;
  /** Aborted when the task or its server is deleted, or the node shuts down. */
  signal: AbortSignal;
  /** Makes a backup of the server (the operation `backup`), said to be by the task. */
  backup?: (serverId: string, by: string, signal: AbortSignal) => Promise<void>;
}

/** A line a run writes, with the task's name before it so a user can tell tasks apart. */
export function taskLine(task: Pick<StoredTask, "name">, line: DaemonMessage): DaemonMessage {
  return message("daemon.task.line", { task: task.name, line });
}

export type RunHow = "scheduled" | "manual";

/** Resolves true when every operation ran, false when one failed or the run was cancelled (both logged). */
export async function runTask(server: Server, task: StoredTask, how: RunHow, ctx: RunContext): Promise<boolean> {
  const log = (line: DaemonMessage) => server.console.daemon(taskLine(task, line));
  log(message(`daemon.task.started.${how}`));
  for (const [i, operation] of task.operations.entries()) {
    const label = message("daemon.step.label", { number: i + 1, total: task.operations.length });
    if (ctx.signal.aborted) {
      log(message("daemon.step.cancelled", { label, type: operation.type }));
      return false;
    }
    log(message("daemon.step.running", { label, type: describe(operation) }));
    try {
      await perform(server, task, operation, log, ctx);
    } catch (error) {
      const reason = ctx.signal.aborted ? message("daemon.cancelled") : reasonMessage(error);
      log(message("daemon.step.failed", { label, type: operation.type, reason }));
      return false;
    }
  }
  log(message("daemon.task.finished"));
  return true;
}

function perform(server: Server, task: StoredTask, operation: Operation, log: (line: DaemonMessage) => void, ctx: RunContext): Promise<void> {
  switch (operation.type) {
    case "console":
      // A command sent to a stopped server would vanish; the run says so instead.
      if (!server.isRunning()) throw new SaidError(message("daemon.task.notRunning"));
      return server.sendCommand(operation.command);
    case "start":
    case "stop":
    case "restart":
    case "kill":
      return server.power(operation.type);
    case "sleep":
      return ctx.clock.sleep(operation.seconds * 1000, ctx.signal);
    case "backup":
      if (!ctx.backup) throw new SaidError(message("daemon.task.noBackups"));
      return ctx.backup(server.id, `task:${task.name}`, ctx.signal);
    default:
      return server.runTaskStep(operation as Step, log, ctx.signal);
  }
}

/** The operation and what it acts on, short enough for one console line. */
function describe(operation: Operation): MessageValue {
  switch (operation.type) {
    case "console":
      return message("daemon.task.console", { command: operation.command });
    case "sleep":
      return message("daemon.task.sleep", { seconds: operation.seconds });
    default:
      return operation.type;
  }
}
