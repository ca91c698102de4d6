// A task's conditions (core/tasks conditionsSchema), checked before every automatic run: the
// server's state, the node's local time of day, and a variable's value. All must hold. The state
// names are those of the ifState step: "running" while the process runs (booting too: it takes
// console commands), "stopped" when nothing runs and no install is under way.
import type { RunState, TaskConditions } from "../../../core/tasks";
import { message, type DaemonMessage } from "../../../core/live/daemon-message";
import type { Server } from "../../servers/server";

/** Whether the server is in `state`. */
export function serverIs(server: Server, state: RunState): boolean {
  const status = server.status();
  return state === "running" ? status.running : !status.running && !status.installing;
}

/** Minutes since local midnight of "HH:MM". */
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Whether `now` (epoch ms) falls in [from, to) by the node's local time; a window past midnight wraps. */
export function withinWindow(now: number, from: string, to: string): boolean {
  const date = new Date(now);
  const at = date.getHours() * 60 + date.getMinutes();
  const start = minutes(from);
  const end = minutes(to);
  return start < end ? at >= start && at < end : at >= start || at < end;
}

/** null when every condition holds, else the first that does not, as a console message. */
export function unmetCondition(conditions: TaskConditions | undefined, server: Server, now: number): DaemonMessage | null {
  if (!conditions) return null;
  if (conditions.state && !serverIs(server, conditions.state)) return message(`daemon.task.condition.${conditions.state}`);
  if (conditions.between && !withinWindow(now, conditions.between.from, conditions.between.to)) return message("daemon.task.condition.between", { from: conditions.between.from, to: conditions.between.to });
  if (conditions.variable !== undefined) {
    const data = server.definition.data ?? {};
    const value = Object.hasOwn(data, conditions.variable) ? String(data[conditions.variable]!.value ?? "") : undefined;
    if (value !== conditions.equals) return message("daemon.task.condition.variable", { variable: conditions.variable, equals: conditions.equals ?? "" });
  }
  return null;
}
