// The panel's half of a scheduled or triggered run (the node asks, see daemon/tasks/panel-check.ts):
// may the user who saved the task still do every operation in it on that server, see what its
// triggers watch, and see every variable its steps name? A user deleted, or whose access or flags
// were taken away since, or a variable the template has hidden since, stops the task from running.
// Who saved the task is the panel's own record (./savers), found by the task's id: the node also
// sends an owner and a client, which are not believed (a node taken over would name the
// administrator). A task the panel has no record of is refused. A task an OAuth2 client saved is
// checked with that client's view instead (./run-as): deleted, it stops the task as a deleted user
// does; bound to a server, it has no other.
// Nothing is remembered between two checks: each run asks afresh.
import type { Db } from "../../../db";
import { KilnError, type ErrorMetadata } from "../../../core/errors";
import { callingNodes, nodeHoldsServer, type NodeCall } from "../nodes/caller";
import { fetchDefinition } from "../servers";
import { serverAccess } from "../servers/permissions";
import { getUser } from "../users";
import { runView } from "./run-as";
import { taskSaver } from "./savers";
import { assertMayUseOperations, assertMayUseTriggers, assertSeesNamedVariables, mayNameHiddenVariables } from "./permissions";

export interface ScheduledRunCheck {
  serverId: string;
  /** The task's id on the server (absent from a node older than the panel's record: then it is refused). */
  task?: string;
  /** The task's operation types, in order. */
  operations: string[];
  /** Its trigger types (absent from a node that sends none: then none are checked). */
  triggers?: string[];
  /** Its operations whole, as the node will run them (absent from a node that sends none: then their variables are not checked). */
  steps?: unknown[];
  /** The variable its conditions name, if any. */
  variable?: string;
  /** The node's request: its token, method and target. */
  nodeCall: NodeCall;
}

/** Returns when the run may go ahead; throws ErrClientNotFound or ErrNoPermission when it may not. */
export async function checkScheduledRun(db: Db, check: ScheduledRunCheck): Promise<void> {
  const callers = await callingNodes(db, check.nodeCall);
  if (!await nodeHoldsServer(db, callers, check.serverId)) throw new KilnError("ErrNotFound", { reason: "server" }, "no such server on this node");
  const saver = await taskSaver(db, check.serverId, check.task);
  if (!saver) throw refusal("ErrNoPermission", { task: check.task ?? "" }, "the panel has no record of who saved the task: it runs once someone who may do all of it saves it again");
  const client = saver.clientId;
  // An owner deleted and one without access are refused alike, naming only the id: the node
  // learns neither whether the account still exists nor its email.
  const noAccess = () => refusal("ErrNoPermission", { permission: "view" }, `the user who saved the task (#${saver.userId}) no longer has access to the server`);
  const account = await getUser(db, saver.userId).catch(() => null);
  if (!account) throw noAccess();
  const view = await runView(db, account, client);
  if (!view) throw refusal("ErrClientNotFound", { client: client ?? "" }, "the OAuth2 client that saved the task no longer exists");
  const access = await serverAccess(db, view, check.serverId);
  if (!access.view) throw client === undefined ? noAccess() : refusal("ErrNoPermission", { permission: "view" }, `the OAuth2 client ${client} no longer has access to the server`);
  // From here the account has access to the server: naming its email tells the node nothing new.
  const who = client === undefined ? account.email : `the OAuth2 client ${client} of ${account.email}`;
  try {
    assertMayUseOperations(access, check.operations);
    assertMayUseTriggers(access, check.triggers ?? []);
  } catch (error) {
    if (!(error instanceof KilnError)) throw error;
    throw refusal("ErrNoPermission", error.metadata, `${who} no longer may: ${error.message}`);
  }
  // A task reads no variable its author could not read by hand (./permissions): checked against the
  // variables as they are now, since a template may have hidden one, or the author lost the admin scope.
  const steps = check.steps ?? [];
  if (!access.admin && mayNameHiddenVariables(access, steps, check.variable)) {
    try {
      assertSeesNamedVariables(await fetchDefinition(db, check.serverId), access, steps, check.variable);
    } catch (error) {
      if (!(error instanceof KilnError) || error.code !== "ErrNoPermission") throw error;
      const name = String(error.metadata?.field);
      throw refusal("ErrNoPermission", error.metadata, `the task names ${name}, a variable ${who} may not see`);
    }
  }
}

/** The node writes `reason` on the server's console: it says whose right went, which `msg` (the catalogue's sentence) cannot. */
function refusal(code: "ErrClientNotFound" | "ErrNoPermission", metadata: ErrorMetadata | undefined, reason: string): KilnError {
  return new KilnError(code, { ...metadata, reason }, reason);
}
