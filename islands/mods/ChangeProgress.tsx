// A change's way through the node, step by step: the backup, the install (a version switch), the
// downloads (n of m), putting the files in place; a step done is ticked, the one running is marked current (and read out).
import type { ChangeStatus } from "../../core/mods/change";
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { check } from "../lib/icons";
import { loaderVersionText } from "./VersionPane";

const STEPS = ["backup", "install", "download", "place"] as const;
type Step = (typeof STEPS)[number];

export function ChangeProgress({ status }: { status: ChangeStatus }) {
  const t = useT();
  // A new server's pack waiting for its install is before every step here (the dialog never follows one).
  const at = status.switchTo === undefined && status.step === "install" ? -1 : STEPS.indexOf(status.step ?? "backup");
  const stateOf = (step: Step) => {
    const i = STEPS.indexOf(step);
    if (status.state === "done" || status.state === "undone" || i < at) return "done";
    if (i > at) return "pending";
    return status.state === "failed" ? "failed" : "current";
  };
  const label = (step: Step) =>
    step === "backup"
      ? t("mods.progress.backup")
      : step === "install"
        ? status.switchOf === "loader"
          ? t("mods.progress.installLoader", { version: loaderVersionText(t, status.switchTo ?? "") })
          : status.switchOf === "pack"
            ? t("mods.progress.installPack")
            : status.switchOf === "platform"
              ? t("mods.progress.installPlatform", { platform: t(`mods.platform.${status.switchTo ?? ""}`) })
              : t("mods.progress.install", { version: status.switchTo ?? "" })
        : step === "download"
          ? t("mods.progress.download", { done: status.downloaded, total: status.total })
          : t("mods.progress.place");
  // A change that downloads nothing (a removal, enabling) has no download step; only a version switch installs.
  const steps = STEPS.filter((step) => (step !== "download" || status.total > 0) && (step !== "install" || status.switchTo !== undefined));
  return (
    <ol className="mods-steps" data-testid="mods-progress" aria-live="polite">
      {steps.map((step) => {
        const state = stateOf(step);
        return (
          <li key={step} className={`mods-step mods-step-${state}`} data-step={step} data-state={state} aria-current={state === "current" ? "step" : undefined}>
            <span className="mods-step-mark" aria-hidden="true">
              {state === "done" ? <Icon path={check} size={14} /> : null}
            </span>
            <span>{label(step)}</span>
          </li>
        );
      })}
    </ol>
  );
}
