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
import type { TriggerValue } from "../../../islands/tasks/TriggerFields";
import type { ServerPageHost } from "./host";

/**
 * A task form whose save failed, to show again in its dialog. `operations` (`triggers`) is null
 * when the script-free textarea held no readable list: the dialog then shows them as stored.
 */
export type FailedTaskSubmit = Omit<FailedTaskForm, "values"> & { values: Omit<TaskFormValues, "operations" | "triggers"> & { operations: StepValue[] | null; triggers: TriggerValue[] | null } };

/** A JSON list of objects with a `type` (steps, triggers), blank for none; null when unreadable. */
function typedList<T>(text: string): T[] | null {
  let list: unknown = null;
  try {
    list = text.trim() === "" ? [] : JSON.parse(text);
  } catch {
    // left null: reported as ErrInvalidJson by the caller
  }
  return Array.isArray(list) && list.every((o) => typeof o === "object" && o !== null && typeof o.type === "string") ? (list as T[]) : null;
}

/**
 * The task form's fields: `scheduled` unchecked (absent, or "" from the schedule editor) means
 * manual only, whatever `cronSchedule` holds; `operations` and `triggers` are JSON text, blank
 * for none; a blank cooldown is the default; each condition left blank is none.
 */
function taskFormFields(body: Record<string, unknown>) {
  const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
  const scheduled = text("scheduled") === "on";
  const cooldown = text("cooldownSeconds").trim();
  const from = text("conditionFrom").trim();
  const to = text("conditionTo").trim();
  const variable = text("conditionVariable").trim();
  const state = text("conditionState");
  return {
    name: text("name"),
    cronSchedule: scheduled ? text("cronSchedule").trim() || null : null,
    operations: typedList<StepValue>(text("operations")),
    triggers: typedList<TriggerValue>(text("triggers")),
    // Not a number is NaN, which the task's schema refuses by name.
    cooldownSeconds: cooldown === "" ? null : Number(cooldown),
    conditions: {
      ...(state ? { state } : {}),
      ...(from || to ? { between: { from, to } } : {}),
      ...(variable ? { variable, equals: text("conditionEquals") } : {}),
    },
  };
}

export function taskFormRoutes(app: Hono<KilnEnv>, deps: Deps, { form, message }: ServerPageHost): void {
  /** Saves the New Task (taskId null) or Edit Task form. */
  const saveTaskForm = (taskId: (c: Context<KilnEnv>) => string | null) =>
    form("editServerData", "tasks", async (c, id, body, access) => {
      const values = taskFormFields(body);
      const editing = taskId(c);
      try {
        if (values.operations === null) throw new KilnError("ErrInvalidJson", { field: "operations" });
        if (values.triggers === null) throw new KilnError("ErrTaskTriggerInvalid", { field: "triggers", reason: "not a JSON list of triggers" });
        await saveTask(deps.db, c.get("user")!, access, id, editing, { ...values, cooldownSeconds: values.cooldownSeconds ?? undefined });
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
