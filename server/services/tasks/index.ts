// A server's scheduled tasks, kept by its node: the panel checks the
// caller may do every operation of a task (and see what its triggers watch, every variable its
// steps name, and the endpoint each webhook step names) before saving or running it, and records
// who saved it (`owner`, and `client` when an OAuth2 client did) so the node can have that user's
// or client's rights confirmed before each scheduled or triggered run. The panel keeps its own
// record of the saver too (./savers), and believes only that one: a node's word names no account.
import { KilnError } from "../../../core/errors";
import { parseTask, type ListedTask, type StoredTask } from "../../../core/tasks";
import { assertRoomFor } from "../../../core/tasks/room";
import type { Db } from "../../../db";
import { callOperation } from "../../daemon-client";
import type { SessionUser } from "../sessions";
import { expectOk, fetchDefinition, serverNode } from "../servers";
import type { ServerAccess } from "../servers/permissions";
import { assertMayUseTaskWebhook } from "../webhooks/task-step";
import { assertMayUseOperations, assertMayUseTriggers, assertSeesNamedVariables, mayNameHiddenVariables } from "./permissions";
import { createdTaskId, forgetTaskSaver, recordTaskSaver } from "./savers";

export { assertMayUseOperations, assertMayUseTriggers, usableOperations, usableTriggers } from "./permissions";
export { checkScheduledRun, type ScheduledRunCheck } from "./scheduled-check";
export { forgetTaskSaver } from "./savers";

/** The server's tasks by id (empty when it has none). */
export async function listTasks(db: Db, serverId: string): Promise<Record<string, ListedTask>> {
  const node = await serverNode(db, serverId);
  const response = await callOperation(node, "tasks", { id: serverId });
  await expectOk(response, node.name);
  return ((await response.json()) as { tasks: Record<string, ListedTask> }).tasks;
}

/**
 * Creates (taskId null) or replaces a task after checking its shape, its schedule and triggers,
 * that the caller may do each of its operations and see what each trigger watches, that its
 * steps and its variable condition name no variable hidden from them (else a task could write a
 * hidden value into a file, or guess it: assertSeesNamedVariables), that each webhook step names
 * an endpoint the caller may use (assertMayUseTaskWebhook, with the caller's own view: a client
 * bound to a server is no administrator of panel-wide endpoints), and that the server has room
 * for it (assertRoomOnNode). Returns the task's id.
 */
export async function saveTask(db: Db, user: SessionUser, access: ServerAccess, serverId: string, taskId: string | null, raw: unknown): Promise<string> {
  const task = parseTask(raw);
  assertMayUseOperations(access, task.operations.map((o) => o.type));
  assertMayUseTriggers(access, (task.triggers ?? []).map((t) => t.type));
  const variable = task.conditions?.variable;
  if (mayNameHiddenVariables(access, task.operations, variable)) assertSeesNamedVariables(await fetchDefinition(db, serverId), access, task.operations, variable);
  for (const operation of task.operations) if (operation.type === "webhook") await assertMayUseTaskWebhook(db, user, serverId, operation.webhook);
  const stored: StoredTask = { ...task, owner: user.id, ...(user.clientId ? { client: user.clientId } : {}) };
  const listed = await listTasks(db, serverId);
  // Only the map's own entries: "__proto__" or "toString" name no task. Answered as the node would.
  if (taskId !== null && !Object.hasOwn(listed, taskId)) throw new KilnError("ErrNotFound", { task: taskId }, `no task ${taskId}`);
  assertRoomOnNode(listed, taskId, stored);
  const node = await serverNode(db, serverId);
  const body = JSON.stringify(stored);
  const init = { headers: { "content-type": "application/json" }, body };
  const response = taskId === null ? await callOperation(node, "createTask", { id: serverId }, init) : await callOperation(node, "replaceTask", { id: serverId, taskId }, init);
  await expectOk(response, node.name);
  const id = taskId ?? createdTaskId(await response.json().catch(() => null), node.name);
  // After the node took it: a record written first, for a save the node then refused, would lend
  // this caller's rights to the task the node still holds under that id.
  await recordTaskSaver(db, serverId, id, user, task.operations);
  return id;
}

/**
 * The server's tasks bounds (core/tasks/room) as the node will check them, checked here first:
 * a node of an older version would store any number. The saved task is measured as the node
 * keeps it (its last run kept, a new one under an id as long as the node's).
 */
function assertRoomOnNode(listed: Record<string, ListedTask>, taskId: string | null, task: StoredTask): void {
  const before: Record<string, StoredTask> = {};
  for (const [id, { nextRun: _, ...kept }] of Object.entries(listed)) before[id] = kept;
  const old = taskId === null ? undefined : before[taskId];
  const next = old?.lastRun ? { ...task, lastRun: old.lastRun } : task;
  assertRoomFor(before, { ...before, [taskId ?? "00000000"]: next });
}

/**
 * Starts a task now, when the caller may do every operation in it and see every variable its steps
 * name (as the server's variables are now: a template may have hidden one since the task was
 * saved): a task does not lend its author's rights.
 */
export async function runTaskNow(db: Db, access: ServerAccess, serverId: string, taskId: string): Promise<void> {
  const tasks = await listTasks(db, serverId);
  // Only the map's own entries: "__proto__" or "toString" name no task.
  const task = Object.hasOwn(tasks, taskId) ? tasks[taskId] : undefined;
  if (!task) throw new KilnError("ErrNotFound", { task: taskId }, `no task ${taskId}`);
  assertMayUseOperations(access, task.operations.map((o) => o.type));
  // Its conditions hold for automatic runs only: a run now does not read them.
  if (mayNameHiddenVariables(access, task.operations)) assertSeesNamedVariables(await fetchDefinition(db, serverId), access, task.operations);
  const node = await serverNode(db, serverId);
  await expectOk(await callOperation(node, "runTask", { id: serverId, taskId }), node.name);
}

export async function deleteTask(db: Db, serverId: string, taskId: string): Promise<void> {
  const node = await serverNode(db, serverId);
  await expectOk(await callOperation(node, "deleteTask", { id: serverId, taskId }), node.name);
  await forgetTaskSaver(db, serverId, taskId);
}
