// The plan's dialog, the one place a change to the add-ons is confirmed: it asks the panel for the
// plan (install or update a project, or remove files, with or without the dependencies nothing
// else needs), shows it (PlanView), and once confirmed applies it and follows the change on the
// node (ChangeProgress) to done, with Undo offered, or to failed, saying why in the catalogue's
// words: a failed change changed nothing. While the change runs the dialog stays open.
import { useEffect, useRef, useState } from "react";
import type { ChangeStatus } from "../../core/mods/change";
import type { Plan, SwitchKind, VersionPlan } from "../../core/mods/types";
import type { PackPlan } from "../../core/mods/pack";
import { useT } from "../lib/i18n";
import { DialogActions } from "../lib/Dialog";
import { check } from "../lib/icons";
import { Overlay } from "../files/Overlay";
import { ChangeProgress } from "./ChangeProgress";
import { followChange } from "./follow-change";
import type { BrowseSource, InstalledEntry, ModsApi } from "./mods-api";
import { Notice } from "./Notice";
import { PlanView } from "./PlanView";
import { PackPlanView } from "./PackPlanView";
import { VersionPlanView } from "./VersionPlanView";
import { changeErrorSentence, errorSentence } from "./say-error";

export type PlanRequest =
  | { kind: "install"; projectId: string; versionId?: string; source?: BrowseSource }
  | { kind: "remove"; fileNames: string[] }
  | { kind: "pack"; projectId: string; versionId?: string; source?: BrowseSource }
  | { kind: "packFile"; file: Blob }
  | { kind: "switch"; what: SwitchKind; version: string };

/** A plan of add-ons, of a modpack (which names no folder), or of a version switch (which names its target). */
type AnyPlan = Plan | PackPlan | VersionPlan;
const isSwitch = (plan: AnyPlan): plan is VersionPlan => "to" in plan;
const isPack = (plan: AnyPlan): plan is PackPlan => !("folder" in plan) && !isSwitch(plan);
const applied = (mods: ModsApi, plan: AnyPlan) => (isSwitch(plan) ? mods.applySwitch(plan.planId) : isPack(plan) ? mods.applyPack(plan.planId) : mods.apply(plan.planId));
/** A switch is never blocked: its missing add-ons are warned of, and it can be undone. */
const blocked = (plan: AnyPlan) => !isSwitch(plan) && plan.blocked;

export interface PlanDialogProps {
  mods: ModsApi;
  /** the dialog's heading: what is being done to what */
  title: string;
  request: PlanRequest;
  installed: readonly InstalledEntry[];
  onClose(): void;
  /** the change was made: the lists are read again */
  onChanged(): void;
  /** Undo, offered once the change is done */
  onUndo(changeId: string): void;
}

type Phase =
  | { kind: "planning" }
  | { kind: "refused"; message: string }
  | { kind: "ready"; plan: AnyPlan }
  | { kind: "applying"; plan: AnyPlan; status: ChangeStatus | null }
  | { kind: "done"; plan: AnyPlan; status: ChangeStatus }
  | { kind: "failed"; plan: AnyPlan; status: ChangeStatus | null; message: string };

export function PlanDialog({ mods, title, request, installed, onClose, onChanged, onUndo }: PlanDialogProps) {
  const t = useT();
  const [phase, setPhase] = useState<Phase>({ kind: "planning" });
  const [withDependencies, setWithDependencies] = useState(false);
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);

  useEffect(() => {
    let current = true;
    setPhase({ kind: "planning" });
    const planned: Promise<AnyPlan> =
      request.kind === "install"
        ? mods.planInstall(request.projectId, request.versionId, request.source)
        : request.kind === "pack"
          ? mods.planPack(request.projectId, request.versionId, request.source)
          : request.kind === "packFile"
            ? mods.planPackFile(request.file)
            : request.kind === "switch"
              ? mods.planSwitch(request.what, request.version)
              : mods.planRemove(request.fileNames, withDependencies);
    planned.then(
      (plan) => current && setPhase({ kind: "ready", plan }),
      async (error: unknown) => {
        const message = await errorSentence(error);
        if (current) setPhase({ kind: "refused", message });
      },
    );
    return () => void (current = false);
  }, [mods, request, withDependencies]);

  async function apply(plan: AnyPlan) {
    setPhase({ kind: "applying", plan, status: null });
    let status: ChangeStatus;
    try {
      status = await followChange(mods, await applied(mods, plan), (s) => alive.current && setPhase({ kind: "applying", plan, status: s }), () => !alive.current);
    } catch (error) {
      const message = await errorSentence(error);
      if (alive.current) setPhase((p) => ({ kind: "failed", plan, status: p.kind === "applying" ? p.status : null, message }));
      return;
    }
    if (!alive.current) return;
    if (status.state === "failed") {
      const message = await changeErrorSentence(status.error);
      if (alive.current) setPhase({ kind: "failed", plan, status, message });
      return;
    }
    setPhase({ kind: "done", plan, status });
    onChanged();
  }

  const running = phase.kind === "applying";
  const removal = request.kind === "remove" && (phase.kind === "planning" || phase.kind === "ready" || phase.kind === "refused");
  return (
    <Overlay title={title} label={title} onClose={running ? () => {} : onClose} className="mods-overlay" testId="mods-plan-dialog">
      {removal ? (
        <label className="check-row">
          <input type="checkbox" checked={withDependencies} onChange={(e) => setWithDependencies(e.currentTarget.checked)} data-testid="mods-with-dependencies" />
          <span>{t("mods.plan.withDependencies")}</span>
        </label>
      ) : null}
      {phase.kind === "planning" ? (
        <p className="muted" aria-busy="true">
          {t("mods.plan.loading")}
        </p>
      ) : null}
      {phase.kind === "refused" ? (
        <>
          <Notice kind="error" testId="mods-plan-refused">{phase.message}</Notice>
          <CloseOnly onClose={onClose} />
        </>
      ) : null}
      {phase.kind === "ready" ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (!blocked(phase.plan) && !isEmpty(phase.plan)) void apply(phase.plan);
          }}
        >
          {isSwitch(phase.plan) ? <VersionPlanView plan={phase.plan} installed={installed} /> : isPack(phase.plan) ? <PackPlanView plan={phase.plan} /> : <PlanView plan={phase.plan} installed={installed} />}
          {!blocked(phase.plan) && !isEmpty(phase.plan) ? <p className="muted small">{t("mods.plan.backupNote")}</p> : null}
          <DialogActions cancel={t("common.cancel")} confirm={t("mods.plan.confirm")} onCancel={onClose} disabled={blocked(phase.plan) || isEmpty(phase.plan)} confirmData={{ "data-testid": "mods-plan-confirm" }} />
        </form>
      ) : null}
      {phase.kind === "applying" ? (
        phase.status ? <ChangeProgress status={phase.status} /> : <p className="muted" aria-busy="true">{t("mods.progress.starting")}</p>
      ) : null}
      {phase.kind === "done" ? (
        <>
          <ChangeProgress status={phase.status} />
          <Notice kind="info" icon={check} testId="mods-change-done">
            {t("mods.progress.done")}
            {phase.status.backup ? <span className="muted small mods-backup-note">{t("mods.progress.backupTaken", { backup: phase.status.backup })}</span> : null}
          </Notice>
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => onUndo(phase.status.changeId)} data-testid="mods-dialog-undo">
              {t("mods.undo.button")}
            </button>
            <button type="button" className="btn btn-primary" onClick={onClose}>
              {t("common.close")}
            </button>
          </div>
        </>
      ) : null}
      {phase.kind === "failed" ? (
        <>
          {phase.status ? <ChangeProgress status={phase.status} /> : null}
          <Notice kind="error" testId="mods-change-failed">
            {phase.message}
            <span className="mods-backup-note">{t("mods.progress.nothingChanged")}</span>
          </Notice>
          <CloseOnly onClose={onClose} />
        </>
      ) : null}
    </Overlay>
  );
}

const isEmpty = (plan: AnyPlan) => !isSwitch(plan) && (isPack(plan) ? plan.files.length + plan.overrides.length + plan.removes.length : plan.add.length + plan.update.length + plan.remove.length) === 0;

function CloseOnly({ onClose }: { onClose(): void }) {
  const t = useT();
  return (
    <div className="dialog-actions">
      <button type="button" className="btn" onClick={onClose}>
        {t("common.close")}
      </button>
    </div>
  );
}
