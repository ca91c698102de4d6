// The last change to the add-ons can be undone (once, and only the last): said above the lists.
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { undo as undoIcon } from "./icons";

export function UndoBanner({ hydrated, undoing, onUndo }: { hydrated: boolean; undoing: boolean; onUndo(): void }) {
  const t = useT();
  return (
    <div className="alert alert-info mods-undo" data-testid="mods-undo">
      <Icon path={undoIcon} size={20} />
      <div>{t("mods.undo.banner")}</div>
      <button type="button" className="btn" onClick={onUndo} disabled={!hydrated || undoing} aria-busy={undoing || undefined} data-testid="mods-undo-button">
        {t(undoing ? "mods.undo.running" : "mods.undo.button")}
      </button>
    </div>
  );
}
