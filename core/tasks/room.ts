// How many tasks a server may have, and how large they may be together. They live in one file of
// the node (<data>/tasks/<server>.json), outside the server's folder and its disk space, read and
// written whole by every task call and every run. Checked by the node on every save and by the
// panel before it asks (a node of an older version has no bound).
import { KilnError } from "../errors";
import { MAX_SERVER_TASKS_BYTES, MAX_TASKS_PER_SERVER } from "./constants";

/**
 * Throws ErrFieldTooLarge when a save would take a server's tasks from `before` to `after` past
 * MAX_TASKS_PER_SERVER tasks or MAX_SERVER_TASKS_BYTES of JSON: a task added to a full server, or
 * a save that grows them past the size. A save that does not grow them passes even over the
 * bounds, so tasks stored before the bounds existed load, run, and can be edited down.
 */
export function assertRoomFor(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): void {
  const count = Object.keys(after).length;
  if (count > MAX_TASKS_PER_SERVER && count > Object.keys(before).length) throw new KilnError("ErrFieldTooLarge", { field: "tasks", max: MAX_TASKS_PER_SERVER }, `a server has at most ${MAX_TASKS_PER_SERVER} tasks`);
  const size = bytesOf(after);
  if (size > MAX_SERVER_TASKS_BYTES && size > bytesOf(before)) throw new KilnError("ErrFieldTooLarge", { field: "tasks", max: MAX_SERVER_TASKS_BYTES }, `a server's tasks take at most ${MAX_SERVER_TASKS_BYTES} bytes of JSON together`);
}

function bytesOf(tasks: Readonly<Record<string, unknown>>): number {
  return Buffer.byteLength(JSON.stringify(tasks));
}
