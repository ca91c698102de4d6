// What a modpack plan will do, before it is confirmed: the pack and what it runs on, the files it
// downloads and the settings and other files it brings (each path with its size, and whether it
// replaces what is there), the files of the installed version an update removes, its warnings as sentences, and why a blocked plan cannot be applied.
// Names come from the pack's author: text only, by the rule of untrusted labels (islands/lib/ShownLabel).
import type { ReactNode } from "react";
import type { PackEntry, PackPlan } from "../../core/mods/pack";
import { formatBytes } from "../../core/units";
import { useT } from "../lib/i18n";
import { PlanWarnings } from "./PlanView";
import { ShownLabel } from "../lib/ShownLabel";

export function PackPlanView({ plan }: { plan: PackPlan }) {
  const t = useT();
  const size = (bytes: number) => formatBytes(bytes, "decimal", 1, t.locale);
  const download = plan.files.reduce((sum, f) => sum + f.size, 0);
  const loader = t(`mods.platform.${plan.loader}`);
  return (
    <div className="stack mods-plan" data-testid="mods-pack-plan">
      <p>
        <strong>
          <ShownLabel text={plan.title} hint={t("common.hiddenCharacters")} dir="auto" /> <ShownLabel text={plan.versionNumber} hint={t("common.hiddenCharacters")} dir="auto" />
        </strong>{" "}
        <span className="muted small">{t("mods.packs.for", { loader, gameVersion: plan.gameVersion ?? "?" })}</span>
      </p>
      {plan.files.length + plan.overrides.length + plan.removes.length === 0 ? <p>{t("mods.packs.empty")}</p> : null}
      <EntrySection title={t("mods.packs.files")} testId="mods-pack-files" entries={plan.files} size={size} />
      <EntrySection title={t("mods.packs.overrides")} testId="mods-pack-overrides" entries={plan.overrides} size={size} />
      <EntrySection title={t("mods.packs.removes")} testId="mods-pack-removes" entries={plan.removes.map((r) => ({ ...r, replaces: false }))} size={size} />
      <PlanWarnings warnings={plan.warnings} blocked={plan.blocked ? t("mods.packs.blocked") : null} />
      {download > 0 ? <p className="muted small">{t("mods.plan.download", { size: size(download) })}</p> : null}
    </div>
  );
}

function EntrySection({ title, entries, testId, size }: { title: string; entries: PackEntry[]; testId: string; size(bytes: number): string }) {
  const t = useT();
  if (entries.length === 0) return null;
  const rows: ReactNode[] = entries.map((e) => (
    <li key={e.path} className="mods-plan-row mods-pack-row" data-path={e.path}>
      <div>
        <span dir="ltr" className="mods-pack-path">{e.path}</span>
        {e.replaces ? <span className="badge mods-required">{t("mods.packs.replaces")}</span> : null}
      </div>
      <span className="muted small mods-size">{size(e.size)}</span>
    </li>
  ));
  return (
    <section className="mods-plan-section" data-testid={testId}>
      <h3>{title}</h3>
      <ul className="mods-plan-list">{rows}</ul>
    </section>
  );
}
