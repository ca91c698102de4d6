// Runs one task: its operations in order, each announced on the server's console with the
// daemon marker; the first failure stops the run with a line saying which step and why.
import type { Operation, StoredTask } from "../../core/tasks";
import type { Step } from "../../core/definition";
import type { Server } from "../servers/server";
import type { Clock } from "./clock";
import { publicReason } from "../http/errors";

export interface RunContext {
  clock: Clock;
  /** Aborted when the task or its server is deleted, or the node shuts down. */
  signal: AbortSignal;
  /** Makes a backup of the server (the operation `backup`), said to be by the task. */
  backup?: (serverId: string, by: string, signal: AbortSignal) => Promise<void>;
}

/** The console prefix of every line a run writes, so a user can tell tasks apart. */
export function taskPrefix(task: Pick<StoredTask, "name">): string {
  return `task ${JSON.stringify(task.name)}`;
}

/** Resolves true when every operation ran, false when one failed or the run was cancelled (both logged). */
export async function runTask(server: Server, task: StoredTask, how: string, ctx: RunContext): Promise<boolean> {
  const prefix = taskPrefix(task);
  const log = (line: string) => server.console.daemon(`${prefix}: ${line}`);
  log(`started (${how})`);
  for (const [i, operation] of task.operations.entries()) {
    const label = `step ${i + 1}/${task.operations.length}`;
    if (ctx.signal.aborted) {
      log(`${label} (${operation.type}) not run: cancelled`);
      return false;
    }
    log(`${label}: ${describe(operation)}`);
    try {
      await perform(server, task, operation, log, ctx);
    } catch (error) {
      const reason = ctx.signal.aborted ? "cancelled" : publicReason(error);
      log(`${label} (${operation.type}) failed: ${reason}`);
      return false;
    }
  }
  log("finished");
  return true;
}

function perform(server: Server, task: StoredTask, operation: Operation, log: (line: string) => void, ctx: RunContext): Promise<void> {
  switch (operation.type) {
    case "console":
      // A command sent to a stopped server would vanish; the run says so instead.
      if (!server.isRunning()) throw new Error("the server is not running");
      return server.sendCommand(operation.command);
    case "start":
      return server.start();
    case "stop":
      return server.stop();
    case "restart":
      // Checked first, so a server that could not start again is not stopped.
      server.checkRequirements();
      return server.restart();
    case "kill":
      return server.kill();
    case "sleep":
      return ctx.clock.sleep(operation.seconds * 1000, ctx.signal);
    case "backup":
      if (!ctx.backup) throw new Error("this node makes no backups");
      return ctx.backup(server.id, `task:${task.name}`, ctx.signal);
    default:
      return server.runTaskStep(operation as Step, log, ctx.signal);
  }
}

/** The operation and what it acts on, short enough for one console line. */
function describe(operation: Operation): string {
  switch (operation.type) {
    case "console":
      return `console: ${operation.command}`;
    case "sleep":
      return `sleep ${operation.seconds} s`;
    default:
      return operation.type;
  }
}
