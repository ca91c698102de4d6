// Tasks tab (the tab needs editServerData): the server's
// tasks with their schedules and triggers in words, an Add button for the New Task dialog, and per task the Edit
// Task dialog, Run now and Delete. All server-rendered <details> overlays and plain forms, so it
// works without script; only the schedule, trigger and step editors inside the form are islands.
import { usePage } from "../../context";
import { ModalDetails } from "../../components/Modal";
import { Icon } from "../../../islands/lib/Icon";
import { plus } from "../../../islands/lib/icons";
import { TaskForm, type FailedTaskForm } from "./tasks/TaskForm";
import { TaskRow, type TaskEntry } from "./tasks/TaskRow";

export type { FailedTaskForm, TaskFormValues } from "./tasks/TaskForm";
export type { TaskEntry } from "./tasks/TaskRow";

export interface TasksTabProps {
  serverId: string;
  tasks: TaskEntry[];
  /** the operation types the user may put in a task (the step editor offers only those) */
  operationTypes: readonly string[];
  /** the trigger types the user may put on a task (the triggers editor offers only those) */
  triggerTypes: readonly string[];
  /** a save that failed: its dialog is rendered open with what was submitted and the error */
  failed?: FailedTaskForm;
}

const EMPTY_TASK = { name: "", cronSchedule: null, operations: [], triggers: [], cooldownSeconds: null, conditions: {} };

export function TasksTab({ serverId, tasks, operationTypes, triggerTypes, failed }: TasksTabProps) {
  const { t } = usePage();
  const base = `/server/${serverId}/tasks`;
  const failedNew = failed && failed.taskId === null ? failed : undefined;
  return (
    <section className="card stack tasks-card" data-testid="tasks">
      <div className="card-head tasks-head">
        <div>
          <h2>{t("tasks.title")}</h2>
          <p className="muted small">{t("tasks.intro")}</p>
        </div>
        <ModalDetails
          summary={
            <>
              <Icon path={plus} size={20} />
              <span>{t("tasks.add")}</span>
            </>
          }
          summaryClass="btn btn-primary"
          title={t("tasks.newTitle")}
          testId="task-new"
          open={failedNew !== undefined}
        >
          <TaskForm action={base} values={failedNew?.values ?? EMPTY_TASK} isNew error={failedNew?.error} operationTypes={operationTypes} triggerTypes={triggerTypes} />
        </ModalDetails>
      </div>
      {tasks.length === 0 ? (
        <p className="muted tasks-empty" data-testid="tasks-empty">{t("tasks.none")}</p>
      ) : (
        <ul className="list tasks-list">
          {tasks.map((task) => (
            <TaskRow key={task.id} base={base} task={task} operationTypes={operationTypes} triggerTypes={triggerTypes} failed={failed?.taskId === task.id ? failed : undefined} />
          ))}
        </ul>
      )}
    </section>
  );
}
