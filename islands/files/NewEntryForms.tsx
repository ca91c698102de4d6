// The toolbar's New file, New folder and Upload as plain forms in <details> overlays (without
// script they must still do something): each posts to the panel's form route. Once hydrated,
// a click on the button opens the island's own dialog instead (name checks, upload progress).
import type { MouseEvent, ReactNode } from "react";
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { DetailsDialog, DialogActions } from "../lib/Dialog";
import { fileAdd, folderAdd, upload as uploadIcon } from "./icons";
import { filesFormUrl } from "../../core/files/page-urls";
import { formPath } from "../../core/files/form-name";

export interface NewEntryFormsProps {
  serverId: string;
  path: string;
  onOpen: (what: "file" | "folder" | "upload") => void;
}

export function NewEntryForms({ serverId, path, onOpen }: NewEntryFormsProps) {
  const t = useT();
  const open = (what: "file" | "folder" | "upload") => (e: MouseEvent) => {
    e.preventDefault();
    onOpen(what);
  };
  const nameForm = (folder: boolean) => (
    <form method="post" action={filesFormUrl(serverId, "new")} className="stack">
      <input type="hidden" name="folder" value={formPath(path)} />
      <input type="hidden" name="kind" value={folder ? "folder" : "file"} />
      <label className="field">
        <span className="field-label">{t("files.nameLabel")}</span>
        <input type="text" name="name" required autoComplete="off" spellCheck={false} />
      </label>
      <Actions submit={t("files.create")} />
    </form>
  );
  return (
    <>
      <Disclosure action="new-file" hotkey="n f" icon={fileAdd} label={t("files.newFile")} title={t("files.newFileTitle")} onClick={open("file")}>
        {nameForm(false)}
      </Disclosure>
      <Disclosure action="new-folder" hotkey="n d" icon={folderAdd} label={t("files.newFolder")} title={t("files.newFolderTitle")} onClick={open("folder")}>
        {nameForm(true)}
      </Disclosure>
      <Disclosure action="upload" hotkey="u" icon={uploadIcon} label={t("files.upload")} title={t("files.uploadTitle")} primary onClick={open("upload")}>
        <form method="post" encType="multipart/form-data" action={`${filesFormUrl(serverId, "upload")}?folder=${encodeURIComponent(path)}`} className="stack">
          <label className="field">
            <span className="field-label">{t("files.uploadChoose")}</span>
            <input type="file" name="file" required className="files-file-input" />
          </label>
          <Actions submit={t("files.uploadStart")} />
        </form>
      </Disclosure>
    </>
  );
}

function Disclosure({ action, hotkey, icon, label, title, primary, onClick, children }: { action: string; hotkey: string; icon: string; label: string; title: string; primary?: boolean; onClick: (e: MouseEvent) => void; children: ReactNode }) {
  return (
    <DetailsDialog
      className="files-form-modal"
      summary={
        <>
          <Icon path={icon} size={20} />
          <span>{label}</span>
        </>
      }
      summaryProps={{ className: primary ? "btn btn-primary" : "btn", "data-hotkey": hotkey, "data-action": action, title: `${label} (${hotkey})`, onClick }}
      title={title}
    >
      {children}
    </DetailsDialog>
  );
}

function Actions({ submit }: { submit: string }) {
  const t = useT();
  return <DialogActions cancel={t("common.cancel")} confirm={submit} />;
}
