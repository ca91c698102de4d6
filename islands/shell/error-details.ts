// The error-details overlay: a technical dump (already masked) the user can copy into a bug report.
import type { Translate } from "../../core/i18n/translate";

export function showErrorDetails(dump: string, t: Translate): HTMLDialogElement {
  const dialog = document.createElement("dialog");
  dialog.className = "dialog error-details";
  const title = document.createElement("h2");
  title.textContent = t("errors.detailsTitle");
  const intro = document.createElement("p");
  intro.className = "muted";
  intro.textContent = t("errors.detailsIntro");
  const pre = document.createElement("pre");
  pre.textContent = dump;
  const actions = document.createElement("div");
  actions.className = "dialog-actions";
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "btn";
  copy.textContent = t("common.copy");
  copy.addEventListener("click", () => void navigator.clipboard?.writeText(dump).then(() => (copy.textContent = t("common.copied"))));
  const close = document.createElement("button");
  close.type = "button";
  close.className = "btn btn-primary";
  close.textContent = t("common.close");
  close.addEventListener("click", () => dialog.close());
  actions.append(copy, close);
  dialog.append(title, intro, pre, actions);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
