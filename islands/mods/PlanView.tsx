// What a plan will do, before it is confirmed: the files it adds, updates (old → new) and removes
// with their sizes, the dependencies it brings (required by whom), its warnings as sentences, and
// why a blocked plan cannot be applied. Titles and versions come from the source: text only.
import type { ReactNode } from "react";
import type { Plan, PlanFile, PlanWarning } from "../../core/mods/types";
import { formatBytes } from "../../core/units";
import { useT } from "../lib/i18n";
import { warningMessage } from "../../core/mods/warnings";
import { Notice } from "./Notice";
import { Avatar } from "./Avatar";
import { ShownLabel } from "../lib/ShownLabel";
import { shownLabel } from "../../core/text/shown-label";
import { rawByteEscape } from "../../core/files/shown-name";
import { FileName } from "../files/FileName";
import type { InstalledEntry } from "./mods-api";

export function PlanView({ plan, installed }: { plan: Plan; installed: readonly InstalledEntry[] }) {
  const t = useT();
  const size = (bytes: number) => formatBytes(bytes, "decimal", 1, t.locale);
  const download = [...plan.add, ...plan.update].reduce((sum, f) => sum + f.size, 0);
  const empty = plan.add.length + plan.update.length + plan.remove.length === 0;
  const before = (fileName: string | undefined) => shownLabel(installed.find((f) => f.fileName === fileName)?.versionNumber ?? fileName ?? "");
  return (
    <div className="stack mods-plan" data-testid="mods-plan">
      {empty ? <p data-testid="mods-plan-nothing">{t("mods.plan.nothing")}</p> : null}
      <PlanSection title={t("mods.plan.add")} testId="mods-plan-add" items={plan.add.map((f) => <FileRow key={f.fileName} file={f} detail={shownLabel(f.versionNumber)} size={size(f.size)} />)} />
      <PlanSection title={t("mods.plan.update")} testId="mods-plan-update" items={plan.update.map((f) => <FileRow key={f.fileName} file={f} detail={t("mods.plan.fromTo", { from: before(f.replaces), to: shownLabel(f.versionNumber) })} size={size(f.size)} />)} />
      <PlanSection
        title={t("mods.plan.remove")}
        testId="mods-plan-remove"
        items={plan.remove.map((r) => (
          <li key={r.fileName} className="mods-plan-row">
            <Avatar id={r.fileName} title={r.title ?? r.fileName} />
            <div>
              <strong><ShownLabel text={r.title ?? r.fileName} hint={t("common.hiddenCharacters")} extra={r.title ? undefined : rawByteEscape} dir="auto" /></strong>
              {r.title ? <span className="muted small" dir="ltr"><FileName name={r.fileName} /></span> : null}
            </div>
            <span className="muted small mods-size">{size(r.size)}</span>
          </li>
        ))}
      />
      <PlanWarnings warnings={plan.warnings} blocked={plan.blocked ? t("mods.plan.blocked") : null} />
      {download > 0 ? <p className="muted small">{t("mods.plan.download", { size: size(download) })}</p> : null}
    </div>
  );
}

/** A plan's warnings as sentences, and why it cannot be applied when it is blocked (`blocked`: that sentence). */
export function PlanWarnings({ warnings, blocked }: { warnings: readonly PlanWarning[]; blocked: string | null }) {
  const t = useT();
  return (
    <>
      {warnings.length > 0 ? (
        <ul className="mods-warnings" data-testid="mods-plan-warnings">
          {warnings.map((w, i) => (
            <li key={i} data-code={w.code}>
              <Notice kind="warning">{warningSentence(t, w)}</Notice>
            </li>
          ))}
        </ul>
      ) : null}
      {blocked ? (
        <Notice kind="error" testId="mods-plan-blocked">
          {blocked}
        </Notice>
      ) : null}
    </>
  );
}

/** A warning in words, naming the projects (the other one, for a pair). */
export function warningSentence(t: ReturnType<typeof useT>, warning: PlanWarning): string {
  const { key, params } = warningMessage(warning);
  // The projects are named by their sources: with their escapes (core/text/shown-label).
  return t(key, { title: shownLabel(params.title), other: shownLabel(params.other) });
}

export function PlanSection({ title, items, testId }: { title: string; items: ReactNode[]; testId: string }) {
  if (items.length === 0) return null;
  return (
    <section className="mods-plan-section" data-testid={testId}>
      <h3>{title}</h3>
      <ul className="mods-plan-list">{items}</ul>
    </section>
  );
}

export function FileRow({ file, detail, size }: { file: PlanFile; detail: string; size: string }) {
  const t = useT();
  return (
    <li className="mods-plan-row" data-project={file.projectId}>
      <Avatar id={file.projectId} title={file.title} />
      <div>
        <strong><ShownLabel text={file.title} hint={t("common.hiddenCharacters")} dir="auto" /></strong>
        <span className="muted small" dir="auto">
          <bdi>{detail}</bdi>
          {file.requiredBy ? <span className="badge mods-required"><bdi>{t("mods.plan.requiredBy", { title: shownLabel(file.requiredBy) })}</bdi></span> : null}
        </span>
      </div>
      <span className="muted small mods-size">{size}</span>
    </li>
  );
}
