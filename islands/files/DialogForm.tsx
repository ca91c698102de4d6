// The form of a file manager dialog that asks one thing and confirms it (move or copy, rename or
// create, permissions, extract): Cancel, and a confirm button that is disabled while what was asked
// is not ready or the confirmation is still on its way. Enter is stopped by the same rule, so a
// double Enter never sends twice.
import { useState, type ReactNode } from "react";
import { useT } from "../lib/i18n";
import { DialogActions, type DataAttributes } from "../lib/Dialog";

export interface DialogFormProps {
  /** the form holds something the confirmation may send */
  ready: boolean;
  /** the confirm button's label */
  confirm: string;
  confirmData?: DataAttributes;
  onConfirm: () => Promise<unknown>;
  onCancel: () => void;
  children: ReactNode;
}

export function DialogForm({ ready, confirm, confirmData, onConfirm, onCancel, children }: DialogFormProps) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="stack"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!ready || busy) return;
        setBusy(true);
        try {
          await onConfirm();
        } finally {
          setBusy(false);
        }
      }}
    >
      {children}
      <DialogActions cancel={t("common.cancel")} confirm={confirm} onCancel={onCancel} disabled={!ready || busy} confirmData={confirmData} />
    </form>
  );
}
