// The second step of a file manager action without script: the files tab shown again
// with the question the island would ask in a dialog (delete: are you sure; move or copy: to
// which folder; rename: the new name; permissions: the mode), as a form posting back to the
// files form route with "confirm". Cancel is a link back to the folder.
import { shownName } from "../../../core/files/shown-name";
import { formName, formPath } from "../../../core/files/form-name";
import { joinPath } from "../../../core/files";
import { usePage } from "../../context";
import { OpenModal } from "../../components/Modal";
import { formatMode } from "../../../islands/files/listing";
import { ExtractSummary } from "../../../islands/lib/ExtractSummary";
import { filesFormUrl, filesPageUrl } from "../../../core/files/page-urls";
import type { ExtractPreview } from "../../../core/files";

export type FilePendingAction = "delete" | "move" | "copy" | "rename" | "mode" | "extract";

export interface FilePending {
  action: FilePendingAction;
  folder: string;
  names: string[];
  /** the entry's mode, for "mode" */
  mode?: number;
  /** what extracting would do where the form says, for "extract" */
  preview?: ExtractPreview;
}

export function FilePendingCard({ serverId, pending }: { serverId: string; pending: FilePending }) {
  const { t } = usePage();
  const { action, folder, names } = pending;
  // Shown with visible escapes (core/files/shown-name); the form's fields keep the names themselves.
  const shown = names.map(shownName);
  const what = names.length === 1 ? shown[0]! : t("files.entries", { count: names.length });
  const title = {
    delete: names.length === 1 ? t("files.deleteTitle", { name: shown[0]! }) : t("files.deleteManyTitle", { count: names.length }),
    move: t("files.moveTitle", { what }),
    copy: t("files.copyTitle", { what }),
    rename: t("files.renameTitle", { name: shown[0]! }),
    mode: t("files.modeTitle", { name: shown[0]! }),
    extract: t("files.extractTitle", { name: shown[0]! }),
  }[action];
  return (
    <OpenModal title={title} id="files-pending">
      <form method="post" action={filesFormUrl(serverId, "act")} className="stack" data-testid="files-pending" data-action={action}>
        <input type="hidden" name="folder" value={formPath(folder)} />
        <input type="hidden" name="do" value={action} />
        <input type="hidden" name="confirm" value="1" />
        {names.map((name) => (
          <input key={name} type="hidden" name="pick" value={formName(name)} />
        ))}
        {action === "delete" ? <p>{t("files.deletePending")}</p> : null}
        {action === "delete" || action === "move" || action === "copy" ? (
          <ul className="files-name-list">
            {names.map((name, i) => (
              <li key={name}>{joinPath(folder ? `/${shownName(folder)}` : "", shown[i]!)}</li>
            ))}
          </ul>
        ) : null}
        {action === "move" || action === "copy" ? (
          <label className="field">
            <span className="field-label">{t("files.destination")}</span>
            <input type="text" name="target" defaultValue={`/${folder}`} required autoComplete="off" spellCheck={false} />
            <span className="field-hint">{t("files.destinationHint")}</span>
          </label>
        ) : null}
        {action === "rename" ? (
          <label className="field">
            <span className="field-label">{t("files.newNameLabel")}</span>
            <input type="text" name="name" defaultValue={names[0]} required autoComplete="off" spellCheck={false} />
          </label>
        ) : null}
        {action === "extract" && pending.preview ? <ExtractPending preview={pending.preview} /> : null}
        {action === "mode" ? (
          <label className="field">
            <span className="field-label">{t("files.modeOctal")}</span>
            <input type="text" name="mode" defaultValue={pending.mode === undefined ? "" : formatMode(pending.mode & 0o777, false)} required inputMode="numeric" maxLength={3} pattern="[0-7]{3}" autoComplete="off" />
            {pending.mode === undefined ? null : <span className="field-hint">{formatMode(pending.mode, true)}</span>}
          </label>
        ) : null}
        <div className="dialog-actions">
          <a className="btn" href={filesPageUrl(serverId, folder)}>
            {t("common.cancel")}
          </a>
          <button type="submit" className={action === "delete" ? "btn btn-danger" : "btn btn-primary"}>
            {t({ delete: "common.delete", move: "files.move", copy: "files.copy", rename: "files.rename", mode: "common.save", extract: "files.extract" }[action])}
          </button>
        </div>
      </form>
    </OpenModal>
  );
}

/** Extract's question without script: where (the form posts it back; changed, it is previewed again), and what it would replace there. */
function ExtractPending({ preview }: { preview: ExtractPreview }) {
  const { t } = usePage();
  return (
    <>
      <input type="hidden" name="previewed" value={formPath(preview.destination)} />
      <label className="field">
        <span className="field-label">{t("files.extractTo")}</span>
        <input type="text" name="target" defaultValue={`/${preview.destination}`} required autoComplete="off" spellCheck={false} dir="ltr" />
        <span className="field-hint">{t("files.extractToHint")}</span>
      </label>
      <ExtractSummary preview={preview} t={t} />
    </>
  );
}
