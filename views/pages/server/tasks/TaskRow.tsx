// One task in the tasks tab: its name, schedule and triggers in words, which open the Edit Task
// dialog (as does the pencil beside them), Run now, and Delete behind a confirmation overlay.
import { usePage } from "../../../context";
import { ConfirmActions, ModalDetails } from "../../../components/Modal";
import { Icon } from "../../../../islands/lib/Icon";
import { pencil, play, trash } from "../../../../islands/lib/icons";
import { TaskForm, type FailedTaskForm, type TaskFormValues } from "./TaskForm";
import { RelativeTime } from "../../../components/RelativeTime";
import type { TaskRun } from "../../../../core/tasks";
import { triggersInWords } from "./trigger-words";

export interface TaskEntry extends TaskFormValues {
  id: string;
  /** the schedule in words; null for a manual-only task */
  description: string | null;
  /** its last run (null: never), and when it runs next by its node's clock (null: not scheduled) */
  lastRun: TaskRun | null;
  nextRun: number | null;
}

export function TaskRow({ base, task, operationTypes, triggerTypes, failed }: { base: string; task: TaskEntry; operationTypes: readonly string[]; triggerTypes: readonly string[]; failed?: FailedTaskForm }) {
  const { t } = usePage();
  const action = `${base}/${encodeURIComponent(task.id)}`;
  const triggered = triggersInWords(task.triggers, task.description !== null, t);
  return (
    <li className="list-row task-row" data-testid="task" data-task-id={task.id}>
      {/* One <details> per task: the whole summary (name, description, pencil) opens its dialog. */}
      <ModalDetails
        summary={
          <>
            <span className="task-text">
              {/* dir="auto": a name in another script than the page's is laid out (and cut short) in its own direction */}
              <strong className="task-name" dir="auto">{task.name}</strong>
              {task.description !== null || !triggered ? <span className="task-when" data-testid="task-description">{task.description ?? t("tasks.manualOnly")}</span> : null}
              {triggered ? <span className="task-when task-triggered" data-testid="task-triggers">{triggered}</span> : null}
              <TaskTimes task={task} />
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
        <TaskForm action={action} values={failed?.values ?? task} isNew={false} error={failed?.error} operationTypes={operationTypes} triggerTypes={triggerTypes} />
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

/** When it last ran (and whether that went well) and when it runs next, as times relative to now. */
function TaskTimes({ task }: { task: TaskEntry }) {
  const { t } = usePage();
  const last = task.lastRun;
  return (
    <span className="task-times small" data-testid="task-times">
      <span data-testid="task-last-run" data-ok={last ? String(last.ok) : undefined}>
        {last ? (
          <>
            {t(last.ok ? "tasks.lastRun" : "tasks.lastRunFailed")} <RelativeTime at={last.at} />
          </>
        ) : (
          t("tasks.neverRun")
        )}
      </span>
      {task.nextRun !== null ? (
        <span data-testid="task-next-run">
          {t("tasks.nextRun")} <RelativeTime at={task.nextRun} />
        </span>
      ) : null}
    </span>
  );
}
