// Before a scheduled or triggered run, the node asks the panel whether the user who saved the task
// (and the OAuth2 client, when one saved it) may still do everything in it: rights change, and the node knows nothing of accounts
// (the panel knows who saved it from its own record, by the task's id). The call carries
// a token signed with the node secret for that one call. No answer means no run: a task never acts on rights
// nobody could confirm.
import { PANEL_CALLS } from "../../core/contract/panel-calls";
import { panelAuthorization, type NodeCredentials } from "../http/node-auth";
import type { TaskCheck } from "./scheduler";

/** The panel's route for it (server/routes/task-check.ts). */
const CHECK_TIMEOUT_MS = 15_000;

export function panelTaskCheck(panelUrl: string, credentials: NodeCredentials): TaskCheck {
  const url = new URL(PANEL_CALLS.taskCheck, panelUrl).toString();
  return async (serverId, task, taskId) => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { authorization: panelAuthorization(credentials, "POST", url), "content-type": "application/json" },
        // `steps`: the operations whole, so the panel can check the variables they name against the
        // author's rights as they are now (a template may have hidden one since the task was saved).
        // `task`: the panel finds who saved it by its id; `owner` and `client` are still sent for an older panel.
        body: JSON.stringify({ serverId, task: taskId, owner: task.owner, client: task.client, operations: task.operations.map((o) => o.type), triggers: (task.triggers ?? []).map((t) => t.type), steps: task.operations, variable: task.conditions?.variable }),
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
    } catch (error) {
      return `the panel at ${panelUrl} does not answer to confirm the permissions (${(error as Error).message})`;
    }
    if (response.ok) {
      await response.body?.cancel();
      return null;
    }
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; msg?: string; metadata?: { reason?: unknown } } } | null;
    const reason = body?.error?.metadata?.reason;
    return typeof reason === "string" ? reason : (body?.error?.msg ?? `the panel answered ${response.status}`);
  };
}
