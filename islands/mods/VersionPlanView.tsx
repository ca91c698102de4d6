// What switching the Minecraft version will do, before it is confirmed: from which version to
// which, the add-ons replaced by their version for the target (old → new), those that have none
// (they stay, and may not load; a file the source does not know is said so), and how it is done.
// A loader switch keeps the Minecraft version and the add-ons: from which loader version to which,
// and how; a CurseForge pack's file switch, from which file to which, and how (a pack laid onto a
// server of another template: the pack, its file and the template that installs it); a platform switch,
// from which platform to which (the template that installs it), the add-ons not made for it, and
// how. Titles and versions come from the source: text only.
import type { VersionPlan } from "../../core/mods/types";
import { formatBytes } from "../../core/units";
import { useT } from "../lib/i18n";
import { Notice } from "./Notice";
import { ShownLabel } from "../lib/ShownLabel";
import { shownLabel } from "../../core/text/shown-label";
import { FileRow, PlanSection } from "./PlanView";
import type { InstalledEntry } from "./mods-api";
import { loaderVersionText } from "./VersionPane";

export function VersionPlanView({ plan, installed }: { plan: VersionPlan; installed: readonly InstalledEntry[] }) {
  const t = useT();
  const size = (bytes: number) => formatBytes(bytes, "decimal", 1, t.locale);
  // Titles and version names come from the sources: in sentences with their escapes (core/text/shown-label).
  const before = (fileName: string | undefined) => shownLabel(installed.find((f) => f.fileName === fileName)?.versionNumber ?? fileName ?? "");
  const download = plan.update.reduce((sum, f) => sum + f.size, 0);
  const platform = t(`mods.platform.${plan.platform}`);
  if (plan.what === "pack" && plan.target) {
    return (
      <div className="stack mods-plan" data-testid="mods-version-plan">
        <p>
          <strong>
            <bdi>{t("mods.versions.packOnto", { title: shownLabel(plan.pack?.title ?? ""), version: shownLabel(plan.pack?.toName ?? plan.to) })}</bdi>
          </strong>
        </p>
        <p className="muted small">
          <bdi>{t("mods.versions.packOntoHow", { template: plan.target.display })}</bdi>
        </p>
      </div>
    );
  }
  if (plan.what === "pack") {
    const to = shownLabel(plan.pack?.toName ?? plan.to);
    return (
      <div className="stack mods-plan" data-testid="mods-version-plan">
        <p>
          <strong>
            <bdi>{t("mods.versions.packFromTo", { title: shownLabel(plan.pack?.title ?? ""), from: shownLabel(plan.pack?.fromName ?? plan.from ?? "?"), to })}</bdi>
          </strong>
        </p>
        <p className="muted small">{t("mods.versions.packHow")}</p>
      </div>
    );
  }
  if (plan.what === "loader") {
    const to = loaderVersionText(t, plan.to);
    return (
      <div className="stack mods-plan" data-testid="mods-version-plan">
        <p>
          <strong>
            <bdi>{t("mods.versions.loaderFromTo", { platform, game: plan.gameVersion ?? "?", from: loaderVersionText(t, plan.from ?? "?"), to })}</bdi>
          </strong>
        </p>
        <p className="muted small">{t("mods.versions.loaderHow", { platform, version: to })}</p>
      </div>
    );
  }
  if (plan.what === "platform") {
    const to = t(`mods.platform.${plan.to}`);
    return (
      <div className="stack mods-plan" data-testid="mods-version-plan">
        <p>
          <strong>
            <bdi>{t("mods.versions.platformFromTo", { from: platform, to, game: plan.gameVersion ?? "?" })}</bdi>
          </strong>
        </p>
        {plan.missing.length > 0 ? (
          <Notice kind="warning" testId="mods-version-missing">
            {t("mods.versions.platformMissing", { platform: to })}
            <MissingList missing={plan.missing} />
          </Notice>
        ) : null}
        <p className="muted small">
          <bdi>{t("mods.versions.platformHow", { template: plan.target?.display ?? "" })}</bdi>
        </p>
      </div>
    );
  }
  return (
    <div className="stack mods-plan" data-testid="mods-version-plan">
      <p>
        <strong>
          <bdi>{t("mods.versions.fromTo", { platform, from: plan.from ?? "?", to: plan.to })}</bdi>
        </strong>
      </p>
      <PlanSection
        title={t("mods.versions.updates", { version: plan.to })}
        testId="mods-version-updates"
        items={plan.update.map((f) => <FileRow key={f.fileName} file={f} detail={t("mods.plan.fromTo", { from: before(f.replaces), to: shownLabel(f.versionNumber) })} size={size(f.size)} />)}
      />
      {plan.missing.length > 0 ? (
        <Notice kind="warning" testId="mods-version-missing">
          {t("mods.versions.missing", { version: plan.to })}
          <MissingList missing={plan.missing} />
        </Notice>
      ) : null}
      <p className="muted small">{t("mods.versions.how", { version: plan.to })}</p>
      {download > 0 ? <p className="muted small">{t("mods.plan.download", { size: size(download) })}</p> : null}
    </div>
  );
}

/** The add-ons a switch leaves without a version for the target (a file the source does not know is said so). */
function MissingList({ missing }: { missing: VersionPlan["missing"] }) {
  const t = useT();
  return (
    <ul className="mods-missing-list">
      {missing.map((m) => (
        <li key={m.fileName} data-file={m.fileName}>
          <ShownLabel text={m.title ?? m.fileName} hint={t("common.hiddenCharacters")} dir="auto" />
          {m.known ? null : <span className="muted small"> ({t("mods.versions.unknown")})</span>}
        </li>
      ))}
    </ul>
  );
}
