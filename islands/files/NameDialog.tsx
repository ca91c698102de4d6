// Create a file or a folder, or rename an entry: an empty name
// disables the button and Enter does nothing; so does a name that is not one plain name, or one
// the folder already holds (creating a file over an existing one would empty it; a rename never
// replaces anything).
import { shownName } from "../../core/files/shown-name";
import { useState } from "react";
import { cleanNewName } from "../../core/files";
import { useT } from "../lib/i18n";
import { Overlay } from "./Overlay";
import { DialogForm } from "./DialogForm";

export interface NameDialogProps {
  folder: boolean;
  /** the name being renamed; absent when creating */
  rename?: string;
  /** names already in the current folder */
  taken: ReadonlySet<string>;
  onCreate: (name: string) => Promise<void> | void;
  onClose: () => void;
}

export function NameDialog({ folder, rename, taken, onCreate, onClose }: NameDialogProps) {
  const t = useT();
  const [name, setName] = useState(rename ?? "");
  const clean = cleanNewName(name);
  const clash = clean !== null && clean !== rename && taken.has(clean);
  const hint = name.trim() === "" ? null : clean === null ? t("files.nameInvalid") : clash ? t("files.nameTaken", { name: clean }) : null;
  const ready = clean !== null && clean !== rename && !clash;
  const title = rename !== undefined ? t("files.renameTitle", { name: shownName(rename) }) : t(folder ? "files.newFolderTitle" : "files.newFileTitle");

  return (
    <Overlay title={title} label={title} onClose={onClose} className="files-name-overlay" testId="files-name-dialog">
      <DialogForm
        ready={ready}
        confirm={t(rename !== undefined ? "files.rename" : "files.create")}
        onConfirm={async () => {
          if (clean !== null) await onCreate(clean);
        }}
        onCancel={onClose}
      >
        <label className="field">
          <span className="field-label">{t(rename !== undefined ? "files.newNameLabel" : "files.nameLabel")}</span>
          <input type="text" name="name" value={name} dir="auto" autoFocus autoComplete="off" spellCheck={false} aria-invalid={hint ? true : undefined} onChange={(e) => setName(e.target.value)} />
          {hint ? <span className="field-hint files-field-error">{hint}</span> : null}
        </label>
      </DialogForm>
    </Overlay>
  );
}
