// The Mods tab's cards for a page without script: a plan to confirm (made by one of the tab's
// plain forms: an install, update, removal, modpack or version switch), with Apply posting it and
// Cancel back to the tab; and a project's page, opened from a search result's link, whose Install
// buttons are forms. The same views as the island's dialogs, rendered on the server.
import type { Plan, VersionPlan } from "../../../core/mods/types";
import type { PackPlan } from "../../../core/mods/pack";
import type { InstalledEntry } from "../../../server/services/mods";
import type { ProjectAnswer } from "../../../islands/mods/mods-api";
import { I18nProvider } from "../../../islands/lib/i18n";
import { PlanView } from "../../../islands/mods/PlanView";
import { PackPlanView } from "../../../islands/mods/PackPlanView";
import { VersionPlanView } from "../../../islands/mods/VersionPlanView";
import { ProjectBody } from "../../../islands/mods/ProjectDialog";
import { modsFormBase } from "../../../islands/mods/ActionForm";
import { usePage } from "../../context";
import { ShownLabel } from "../../../islands/lib/ShownLabel";

export type ShownPlan = { kind: "addons"; plan: Plan } | { kind: "pack"; plan: PackPlan } | { kind: "switch"; plan: VersionPlan };

const APPLY: Record<ShownPlan["kind"], string> = { addons: "plan", pack: "packs/plan", switch: "versions/plan" };

export function ModsPlanCard({ serverId, shown, installed }: { serverId: string; shown: ShownPlan; installed: readonly InstalledEntry[] }) {
  const { t } = usePage();
  const { plan } = shown;
  const blocked = shown.kind !== "switch" && shown.plan.blocked;
  const empty = shown.kind === "addons" ? shown.plan.add.length + shown.plan.update.length + shown.plan.remove.length === 0 : shown.kind === "pack" ? shown.plan.files.length + shown.plan.overrides.length + shown.plan.removes.length === 0 : false;
  return (
    <I18nProvider t={t}>
      <section className="card stack mods-confirm" data-testid="mods-confirm" aria-labelledby="mods-confirm-title">
        <h2 id="mods-confirm-title">{t("mods.confirm.title")}</h2>
        {shown.kind === "addons" ? <PlanView plan={shown.plan} installed={installed} /> : shown.kind === "pack" ? <PackPlanView plan={shown.plan} /> : <VersionPlanView plan={shown.plan} installed={installed} />}
        {!blocked && !empty ? <p className="muted small">{t("mods.plan.backupNote")}</p> : null}
        <form method="post" action={`${modsFormBase(serverId)}/${APPLY[shown.kind]}/${encodeURIComponent(plan.planId)}/apply`} className="dialog-actions">
          <a className="btn" href={`/server/${encodeURIComponent(serverId)}?tab=mods`}>
            {t("common.cancel")}
          </a>
          <button type="submit" className="btn btn-primary" disabled={blocked || empty} data-testid="mods-confirm-apply">
            {t("mods.plan.confirm")}
          </button>
        </form>
      </section>
    </I18nProvider>
  );
}

export function ModsProjectCard({ serverId, project }: { serverId: string; project: ProjectAnswer }) {
  const { t } = usePage();
  return (
    <I18nProvider t={t}>
      <section className="card stack mods-project-card" data-testid="mods-project-card" aria-labelledby="mods-project-title">
        <div className="card-head">
          <h2 id="mods-project-title">
            <ShownLabel text={project.title} hint={t("common.hiddenCharacters")} dir="auto" />
          </h2>
          <a className="btn" href={`/server/${encodeURIComponent(serverId)}?tab=mods`}>
            {t("common.close")}
          </a>
        </div>
        <ProjectBody serverId={serverId} project={project} hydrated={false} onInstall={() => undefined} />
      </section>
    </I18nProvider>
  );
}
