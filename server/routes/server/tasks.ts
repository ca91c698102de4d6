// The tasks tab's plain forms: new and edit (a refusal shows that dialog again, open, with the
// error), run now, delete. The caller must hold the rights of every operation (services/tasks).
import type { Context, Hono } from "hono";
import { KilnError } from "../../../core/errors";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { deleteTask, runTaskNow, saveTask } from "../../services/tasks";
import type { FailedTaskForm, TaskFormValues } from "../../../views/pages/server/TasksTab";
import type { StepValue } from "../../../islands/definition/convert";
import type { ServerPageHost } from "./host";

/**
 * A task form whose save failed, to show again in its dialog. `operations` is null when the
 * script-free textarea held no readable list: the dialog then shows the steps as stored.
 */
export type FailedTaskSubmit = Omit<FailedTaskForm, "values"> & { values: Omit<TaskFormValues, "operations"> & { operations: StepValue[] | null } };

/**
 * The task form's fields: `scheduled` unchecked (absent, or "" from the schedule editor) means
 * manual only, whatever `cronSchedule` holds; `operations` is JSON text, blank for none.
 */
function taskFormFields(body: Record<string, unknown>) {
  const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
  const scheduled = text("scheduled") === "on";
  const operationsText = text("operations").trim();
  let operations: unknown = null;
  try {
    operations = operationsText === "" ? [] : JSON.parse(operationsText);
  } catch {
    // left null: reported as ErrInvalidJson below
  }
  const readable = Array.isArray(operations) && operations.every((o) => typeof o === "object" && o !== null && typeof o.type === "string");
  return { name: text("name"), cronSchedule: scheduled ? text("cronSchedule").trim() || null : null, operations: readable ? (operations as StepValue[]) : null };
}

export function taskFormRoutes(app: Hono<KilnEnv>, deps: Deps, { form, message }: ServerPageHost): void {
  /** Saves the New Task (taskId null) or Edit Task form. */
  const saveTaskForm = (taskId: (c: Context<KilnEnv>) => string | null) =>
    form("editServerData", "tasks", async (c, id, body, access) => {
      const values = taskFormFields(body);
      const editing = taskId(c);
      try {
        if (values.operations === null) throw new KilnError("ErrInvalidJson", { field: "operations" });
        await saveTask(deps.db, c.get("user")!, access, id, editing, values);
        return "tasks.saved";
      } catch (error) {
        if (!(error instanceof KilnError)) throw error;
        return { failedTask: { taskId: editing, values, error: message(c, error) }, status: error.status };
      }
    });

  app.post("/server/:id/tasks", requirePageLogin(), saveTaskForm(() => null));
  app.post("/server/:id/tasks/:taskId", requirePageLogin(), saveTaskForm((c) => c.req.param("taskId")!));

  app.post("/server/:id/tasks/:taskId/run", requirePageLogin(), form("editServerData", "tasks", async (c, id, _body, access) => {
    await runTaskNow(deps.db, access, id, c.req.param("taskId")!);
    return "tasks.started";
  }));

  app.post("/server/:id/tasks/:taskId/delete", requirePageLogin(), form("editServerData", "tasks", async (c, id) => {
    await deleteTask(deps.db, id, c.req.param("taskId")!);
    return "tasks.deleted";
  }));
}
