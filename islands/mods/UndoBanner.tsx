// The last change to the add-ons can be undone (once, and only the last): said above the lists.
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { undo as undoIcon } from "./icons";
import { ActionForm, modsFormBase } from "./ActionForm";

export function UndoBanner({ serverId, changeId, hydrated, undoing, onUndo }: { serverId: string; changeId: string; hydrated: boolean; undoing: boolean; onUndo(): void }) {
  const t = useT();
  return (
    <div className="alert alert-info mods-undo" data-testid="mods-undo">
      <Icon path={undoIcon} size={20} />
      <div>{t("mods.undo.banner")}</div>
      <ActionForm action={`${modsFormBase(serverId)}/changes/${encodeURIComponent(changeId)}/undo`} hydrated={hydrated} onAct={onUndo}>
        <button type="submit" className="btn" disabled={undoing} aria-busy={undoing || undefined} data-testid="mods-undo-button">
          {t(undoing ? "mods.undo.running" : "mods.undo.button")}
        </button>
      </ActionForm>
    </div>
  );
}
