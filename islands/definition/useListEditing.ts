// Editing one item of a list in a dialog (steps, variables, groups, environments): a copy is edited
// (the draft), and only Apply puts it in the list, at its place or, for a new item, at the end; so
// cancelling leaves the list as it was and a new item never joins half made.
import { useState } from "react";
import { replaceAt } from "./fields";

export interface ListEditing<T> {
  /** the position it is saved at: the list's length for a new item */
  index: number;
  isNew: boolean;
  draft: T;
}

export function useListEditing<T>(list: readonly T[], onChange: (list: T[]) => void) {
  const [editing, setEditing] = useState<ListEditing<T> | null>(null);
  return {
    /** the item being edited; null while no dialog is open */
    editing,
    edit: (index: number, item: T) => setEditing({ index, isNew: false, draft: item }),
    add: (draft: T) => setEditing({ index: list.length, isNew: true, draft }),
    setDraft: (draft: T) => setEditing((current) => (current ? { ...current, draft } : current)),
    cancel: () => setEditing(null),
    /** Puts `item` (the draft, or what it is saved as) in the edited item's place and closes the dialog. */
    apply(item: T | undefined = editing?.draft): void {
      if (!editing || item === undefined) return;
      onChange(editing.isNew ? [...list, item] : replaceAt(list, editing.index, item));
      setEditing(null);
    },
  };
}
