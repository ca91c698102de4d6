// One task in the tasks tab: its name and schedule in words, which open the Edit Task dialog (as
// does the pencil beside them), Run now, and Delete behind a confirmation overlay.
import { usePage } from "../../../context";
import { ConfirmActions, ModalDetails } from "../../../components/Modal";
import { Icon } from "../../../../islands/lib/Icon";
import { pencil, play, trash } from "../../../../islands/lib/icons";
import { TaskForm, type FailedTaskForm, type TaskFormValues } from "./TaskForm";

export interface TaskEntry extends TaskFormValues {
  id: string;
  /** the schedule in words; null for a manual-only task */
  description: string | null;
}

export function TaskRow({ base, task, operationTypes, failed }: { base: string; task: TaskEntry; operationTypes: readonly string[]; failed?: FailedTaskForm }) {
  const { t } = usePage();
  const action = `${base}/${encodeURIComponent(task.id)}`;
  return (
    <li className="list-row task-row" data-testid="task" data-task-id={task.id}>
      {/* One <details> per task: the whole summary (name, description, pencil) opens its dialog. */}
      <ModalDetails
        summary={
          <>
            <span className="task-text">
              <strong className="task-name">{task.name}</strong>
              <span className="task-when" data-testid="task-description">{task.description ?? t("tasks.manualOnly")}</span>
            </span>
            <span className="task-edit" title={t("tasks.edit")}>
              <Icon path={pencil} size={18} />
              <span className="sr-only">{t("tasks.edit")}</span>
            </span>
          </>
        }
        summaryClass="task-summary"
        title={t("tasks.editTitle")}
        testId="task-edit"
        open={failed !== undefined}
      >
        <TaskForm action={action} values={failed?.values ?? task} isNew={false} error={failed?.error} operationTypes={operationTypes} />
      </ModalDetails>
      <div className="task-actions">
        <form method="post" action={`${action}/run`}>
          <button type="submit" className="icon-btn task-run" title={t("tasks.runNow")} aria-label={t("tasks.runNow")} data-testid="task-run">
            <Icon path={play} size={20} />
          </button>
        </form>
        <ModalDetails
          summary={
            <>
              <Icon path={trash} size={20} />
              <span className="sr-only">{t("tasks.delete")}</span>
            </>
          }
          summaryClass="icon-btn task-delete"
          title={t("tasks.deleteTitle")}
          testId="task-delete"
        >
          <form method="post" action={`${action}/delete`} className="stack">
            <p>{t("tasks.deleteConfirm", { name: task.name })}</p>
            <ConfirmActions cancel={t("common.cancel")} confirm={t("common.delete")} />
          </form>
        </ModalDetails>
      </div>
    </li>
  );
}
